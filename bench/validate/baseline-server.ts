// The yardstick: a bare node:http server doing the same Ajv check as Toolgate's validate/pre,
// with no framework, no auth and no persistence. Prints its port on stdout.
import http from 'node:http';
import { compileContract } from '../../lib/contracts/compile-contract';
import { lookupOrderContract } from '../../lib/contracts/examples';

const compiled = compileContract(lookupOrderContract);
if (!compiled.ok) throw new Error('example contract does not compile');
const contract = compiled.contract;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let body: { arguments?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const errors = contract.checkInput(body.arguments);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ valid: errors.length === 0, errors }));
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
