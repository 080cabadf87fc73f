// The bench's load on a boardgame.io server: N clients (boardgame.io's Client with the
// SocketIO transport, one socket per player, credentials from the lobby API) in matches
// of six, and a dispatcher making moves at a steady total rate, each by the player whose
// turn it is on a match that is ready (no move in flight, and the mover's client holds
// the match's latest state).
//   node load.js --server http://127.0.0.1:PORT --clients 300 --rate 100 --duration 10
// Prints lines of JSON: {"event":"measure"} and {"event":"measured"} around the measured
// part (after --warm-up seconds), then the figures.
const { performance } = require('node:perf_hooks');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { GoBigShape } = require('./game');

const TABLE = 6;
const MOVE_TIMEOUT_MS = 10000;

function options(argv) {
  const value = (flag, fallback) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : fallback;
  };
  const server = value('--server');
  if (!server || !/^http:\/\/127\.0\.0\.1:\d+$/.test(server)) {
    throw new Error('give --server http://127.0.0.1:PORT');
  }
  return { server, clients: Number(value('--clients', 300)), rate: Number(value('--rate', 100)),
           duration: Number(value('--duration', 10)), warmUp: Number(value('--warm-up', 3)) };
}

function say(object) {
  process.stdout.write(`${JSON.stringify(object)}\n`);
}

function percentile(values, p) {
  if (!values.length) return null;
  const ordered = [...values].sort((a, b) => a - b);
  const index = Math.round((p / 100) * ordered.length + 0.5) - 1;
  return ordered[Math.max(0, Math.min(ordered.length - 1, index))];
}

async function lobby(server, path, body) {
  const answer = await fetch(`${server}/games/${GoBigShape.name}${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return answer.json();
}

// One match of six clients, each told of its state by its own socket.
class Match {
  constructor(bench) {
    this.bench = bench;
    this.clients = [];
    this.held = [];  // the state ID each client holds
    this.latest = -1;
    this.move = null;  // the move in flight
    this.over = false;
  }

  async seat(server) {
    const { matchID } = await lobby(server, '/create', { numPlayers: TABLE });
    const credentials = [];
    for (let seat = 0; seat < TABLE; seat += 1) {
      const joined = await lobby(server, `/${matchID}/join`,
        { playerID: String(seat), playerName: `player ${seat}` });
      credentials.push(joined.playerCredentials);
    }
    this.held = Array(TABLE).fill(-1);
    this.latest = -1;
    this.over = false;
    const synced = [];
    this.clients = credentials.map((credential, seat) => {
      const client = Client({
        game: GoBigShape, matchID, playerID: String(seat), credentials: credential,
        debug: false, numPlayers: TABLE,
        multiplayer: SocketIO({ server, socketOpts: { forceNew: true, transports: ['websocket'] } }),
      });
      synced.push(new Promise((resolve) => {
        client.subscribe((state) => {
          if (state) {
            this.heard(seat, state);
            resolve();
          }
        });
      }));
      client.start();
      return client;
    });
    await Promise.all(synced);
  }

  heard(seat, state) {
    const at = performance.now();
    if (state._stateID <= this.held[seat]) return;
    this.held[seat] = state._stateID;
    this.latest = Math.max(this.latest, state._stateID);
    this.state = this.latest === state._stateID ? state : this.state;
    if (state.ctx.gameover) this.over = true;
    const move = this.move;
    if (!move || state._stateID <= move.from) return;
    if (seat === move.seat) move.answered = at;
    else if (move.waiting.delete(seat)) move.lastHeard = at;
    if (move.answered !== undefined && move.waiting.size === 0) this.bench.done(this, move);
  }

  ready() {
    if (this.move || this.over || !this.state) return false;
    const turn = Number(this.state.ctx.currentPlayer);
    return this.held[turn] === this.latest;
  }

  // A legal move of the player whose turn it is, read from their own view.
  makeMove() {
    const seat = Number(this.state.ctx.currentPlayer);
    const view = this.clients[seat].getState();
    const { G } = view;
    const waiting = new Set([...Array(TABLE).keys()].filter((other) => other !== seat));
    this.move = { seat, from: view._stateID, sent: performance.now(), waiting,
                  measured: this.bench.measuring };
    if (G.step === 'play') {
      const hand = G.players[String(seat)].hand;
      const value = hand[Math.floor(Math.random() * hand.length)];
      const most = Math.min(3, hand.filter((card) => card === value).length);
      this.clients[seat].moves.play({ value, count: 1 + Math.floor(Math.random() * most) });
    } else {
      const sources = [G.deckSize > 0 && 'deck', G.market.length > 0 && 'market'].filter(Boolean);
      this.clients[seat].moves.draw({ source: sources[Math.floor(Math.random() * sources.length)] });
    }
  }

  stop() {
    for (const client of this.clients) client.stop();
  }
}

class Bench {
  constructor(opts) {
    this.opts = opts;
    this.matches = [];
    this.measuring = false;
    this.moves = 0;
    this.errors = 0;
    this.slots = 0;
    this.unready = 0;
    this.moveLatency = [];
    this.fanOut = [];
    this.finished = 0;
    this.cursor = 0;
  }

  done(match, move) {
    match.move = null;
    if (!move.measured) return;
    this.moves += 1;
    this.moveLatency.push(move.answered - move.sent);
    this.fanOut.push((move.lastHeard ?? move.sent) - move.sent);
  }

  expire(now) {
    for (const match of this.matches) {
      if (match.move && now - match.move.sent > MOVE_TIMEOUT_MS) {
        if (match.move.measured) this.errors += 1;
        match.move = null;
      }
    }
  }

  replaceFinished() {
    for (const match of this.matches) {
      if (match.over && !match.replacing && !match.move) {
        match.replacing = true;
        this.finished += 1;
        match.stop();
        match.seat(this.opts.server).catch(() => { this.errors += 1; })
          .finally(() => { match.replacing = false; });
      }
    }
  }

  // The next match that is ready, after the last one that moved.
  nextReady() {
    for (let n = 0; n < this.matches.length; n += 1) {
      const match = this.matches[(this.cursor + n) % this.matches.length];
      if (!match.replacing && match.ready()) {
        this.cursor = (this.cursor + n + 1) % this.matches.length;
        return match;
      }
    }
    return null;
  }

  async run(seconds) {
    const start = performance.now();
    let slot = 0;
    while (performance.now() - start < seconds * 1000) {
      slot += 1;
      this.expire(performance.now());
      this.replaceFinished();
      const match = this.nextReady();
      if (this.measuring) this.slots += 1;
      if (match) match.makeMove();
      else if (this.measuring) this.unready += 1;
      const wait = start + (slot * 1000) / this.opts.rate - performance.now();
      await new Promise((resolve) => { setTimeout(resolve, Math.max(0, wait)); });
    }
  }

  async settle(limitMs) {
    const deadline = performance.now() + limitMs;
    while (this.matches.some((m) => m.move && m.move.measured) && performance.now() < deadline) {
      await new Promise((resolve) => { setTimeout(resolve, 20); });
    }
    return this.matches.filter((m) => m.move && m.move.measured).length;
  }
}

async function main() {
  const opts = options(process.argv.slice(2));
  const bench = new Bench(opts);
  const count = Math.max(1, Math.floor(opts.clients / TABLE));
  for (let n = 0; n < count; n += 1) bench.matches.push(new Match(bench));
  const seated = performance.now();
  for (const match of bench.matches) await match.seat(opts.server);
  const seatSeconds = (performance.now() - seated) / 1000;
  await bench.run(opts.warmUp);
  await bench.settle(5000);
  const cpu0 = process.cpuUsage();
  say({ event: 'measure' });
  bench.measuring = true;
  const started = performance.now();
  await bench.run(opts.duration);
  const seconds = (performance.now() - started) / 1000;
  bench.measuring = false;
  say({ event: 'measured' });
  const cpu = process.cpuUsage(cpu0);
  const unfinished = await bench.settle(5000);
  for (const match of bench.matches) match.stop();
  const ms = (v) => (v === null ? null : Math.round(v * 100) / 100);
  say({
    clients: count * TABLE, matches: count, rate: opts.rate, seconds, seat_seconds: seatSeconds,
    moves: bench.moves, achieved: bench.moves / seconds, errors: bench.errors + unfinished,
    slots: bench.slots, slots_unready: bench.unready, games_finished: bench.finished,
    move_p50_ms: ms(percentile(bench.moveLatency, 50)),
    move_p99_ms: ms(percentile(bench.moveLatency, 99)),
    fan_out_p50_ms: ms(percentile(bench.fanOut, 50)),
    fan_out_p99_ms: ms(percentile(bench.fanOut, 99)),
    load_gen_cpu_ms: (cpu.user + cpu.system) / 1000,
  });
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
