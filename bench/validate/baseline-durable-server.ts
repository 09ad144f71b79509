// The durable yardstick: the bare server's work (node:http, JSON.parse, the same Ajv check) plus
// the least a gate that keeps evidence must do before it answers: each request's record appended
// to a SQLite file in WAL mode with synchronous=FULL, hash-chained to the one before it, and the
// answer sent only once its commit is on disk. Group commit on a thread of its own, one batch in
// flight, as Toolgate's evidence writer does; no auth, no policies, no indexes beyond the rowid,
// no rollups. It prices what durability alone costs on this machine, so that the data plane's
// figures can be read against a server that makes the same promise (docs/benchmarks.md).
// usage: tsx bench/validate/baseline-durable-server.ts <sqlite file>   (prints its port on stdout)
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { compileContract } from '../../lib/contracts/compile-contract';
import { lookupOrderContract } from '../../lib/contracts/examples';

const file = process.argv[2];
if (!file) throw new Error('usage: baseline-durable-server.ts <sqlite file>');
const compiled = compileContract(lookupOrderContract);
if (!compiled.ok) throw new Error('example contract does not compile');
const contract = compiled.contract;

// The writer thread, as plain JavaScript (no loader needed in the worker).
const writerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const Database = require(workerData.betterSqlite3);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec('CREATE TABLE IF NOT EXISTS evidence (seq INTEGER PRIMARY KEY, hash BLOB NOT NULL, record TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO evidence (hash, record) VALUES (?, ?)');
let prev = Buffer.alloc(32);
const commit = db.transaction((records) => {
  for (const record of records) {
    prev = createHash('sha256').update(prev).update(record).digest();
    insert.run(prev, record);
  }
});
parentPort.on('message', (records) => {
  commit(records);
  parentPort.postMessage(records.length);
});
`;
const writer = new Worker(writerSource, {
  eval: true,
  workerData: { file, betterSqlite3: createRequire(import.meta.url).resolve('better-sqlite3') },
});

type Waiting = () => void;
let batch: string[] = [];
let answers: Waiting[] = [];
let inFlight: Waiting[] | null = null;
let scheduled = false;

function send(): void {
  scheduled = false;
  if (inFlight || batch.length === 0) return;
  writer.postMessage(batch);
  inFlight = answers;
  batch = [];
  answers = [];
}
writer.on('message', () => {
  const committed = inFlight ?? [];
  inFlight = null;
  for (const answer of committed) answer();
  send();
});
writer.on('error', (error) => {
  console.error(error);
  process.exit(1);
});

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let body: { tool?: unknown; call_id?: unknown; arguments?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const errors = contract.checkInput(body.arguments);
    const answer = JSON.stringify({ valid: errors.length === 0, errors });
    batch.push(JSON.stringify({ at: Date.now(), request: text, answer }));
    answers.push(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer);
    });
    if (!scheduled) {
      scheduled = true;
      setImmediate(send);
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
