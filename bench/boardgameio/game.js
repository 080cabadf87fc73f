// A game with the shape of Go Big, for the bench only: six seats, a secret hand and a
// secret bank per player, a public board of seats (hand size, the set on display, cards
// banked), a deck and a market of two. A turn is `play` a set of equal cards from the
// hand (beating the lowest higher display of the same size), then `draw` two cards from
// the deck or the market; at the start of a turn the player's display goes to their bank.
const { INVALID_MOVE } = require('boardgame.io/core');

const VALUES = [1, 2, 3, 4, 5, 6, 7];
const COPIES = 13;
const HAND_SIZE = 6;
const MARKET_SIZE = 2;

function setup({ ctx, random }) {
  const cards = random.Shuffle(VALUES.flatMap((value) => Array(COPIES).fill(value)));
  const players = {};
  const seats = [];
  for (const id of ctx.playOrder) {
    players[id] = { hand: cards.splice(0, HAND_SIZE), bank: [] };
    seats.push({ player: id, hand: HAND_SIZE, display: null, banked: 0 });
  }
  const market = cards.splice(0, MARKET_SIZE);
  return { secret: { deck: cards }, players, seats, market, deckSize: cards.length,
           step: 'play', beaten: 0, finished: false };
}

const seatOf = (G, playerID) => G.seats.find((seat) => seat.player === playerID);

function canDraw(G) {
  return G.secret.deck.length > 0 || G.market.length > 0;
}

function play({ G, playerID, events }, { value, count }) {
  const hand = G.players[playerID].hand;
  const held = hand.filter((card) => card === value).length;
  if (G.step !== 'play' || !Number.isInteger(count) || count < 1 || count > 3 || held < count) {
    return INVALID_MOVE;
  }
  for (let n = 0; n < count; n += 1) hand.splice(hand.indexOf(value), 1);
  const higher = G.seats.filter((seat) => seat.player !== playerID && seat.display
    && seat.display.count === count && seat.display.value > value);
  const lowest = Math.min(...higher.map((seat) => seat.display.value));
  for (const seat of higher.filter((s) => s.display.value === lowest)) {
    G.beaten += seat.display.count;
    seat.display = null;
  }
  const seat = seatOf(G, playerID);
  seat.hand = hand.length;
  seat.display = { value, count };
  if (canDraw(G)) {
    G.step = 'draw';
  } else if (hand.length === 0) {
    G.finished = true;
  } else {
    events.endTurn();
  }
  return undefined;
}

function draw({ G, playerID, events }, { source }) {
  const pile = source === 'deck' ? G.secret.deck : source === 'market' ? G.market : null;
  if (G.step !== 'draw' || !pile || pile.length === 0) return INVALID_MOVE;
  const hand = G.players[playerID].hand;
  hand.push(...pile.splice(0, MARKET_SIZE));
  G.market.push(...G.secret.deck.splice(0, MARKET_SIZE - G.market.length));
  G.deckSize = G.secret.deck.length;
  seatOf(G, playerID).hand = hand.length;
  events.endTurn();
  return undefined;
}

function bankDisplay({ G, ctx }) {
  G.step = 'play';
  const seat = seatOf(G, ctx.currentPlayer);
  if (seat.display) {
    const bank = G.players[ctx.currentPlayer].bank;
    for (let n = 0; n < seat.display.count; n += 1) bank.push(seat.display.value);
    seat.banked = bank.length;
    seat.display = null;
  }
}

// What a player is sent: the public board, and their own hand and bank only.
function playerView({ G, playerID }) {
  const own = G.players[playerID];
  return { ...G, secret: undefined, players: own ? { [playerID]: own } : {} };
}

const GoBigShape = {
  name: 'go-big-shape',
  minPlayers: 6,
  maxPlayers: 6,
  setup,
  playerView,
  moves: {
    play: { move: play, client: false },
    draw: { move: draw, client: false },
  },
  turn: { onBegin: bankDisplay },
  endIf: ({ G }) => (G.finished
    ? { banks: Object.fromEntries(Object.entries(G.players).map(([id, p]) => [id, p.bank])) }
    : undefined),
};

module.exports = { GoBigShape };
