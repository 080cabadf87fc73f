// boardgame.io serving the Go Big-shaped game on 127.0.0.1, for the bench only:
//   node server.js --port PORT --store memory
//   node server.js --port PORT --store flatfile DIR
const { Server, FlatFile } = require('boardgame.io/server');
const { GoBigShape } = require('./game');

function options(argv) {
  const at = (flag) => argv.indexOf(flag);
  const port = Number(argv[at('--port') + 1]);
  const store = at('--store') >= 0 ? argv[at('--store') + 1] : 'memory';
  const dir = argv[at('--store') + 2];
  if (!Number.isInteger(port) || port <= 0 || at('--port') < 0) {
    throw new Error('give --port PORT');
  }
  if (store !== 'memory' && !(store === 'flatfile' && dir)) {
    throw new Error('give --store memory or --store flatfile DIR');
  }
  return { port, store, dir };
}

async function main() {
  const { port, store, dir } = options(process.argv.slice(2));
  const db = store === 'flatfile' ? new FlatFile({ dir }) : undefined;
  const server = Server({ games: [GoBigShape], db, origins: [] });
  // Node's listen takes {port, host}: the server answers on 127.0.0.1 only.
  await server.run({ port: { port, host: '127.0.0.1' } });
  process.stdout.write(`ready ${store} ${port}\n`);
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
