/**
 * A process traced as a unit is (startTracing first, then the modules it instruments): an express
 * route that queries PostgreSQL through a pool. Prints its port; each GET /things/:id answers the
 * query's row; GET /stop exports what is left and exits.
 */
import type { AddressInfo } from 'node:net';
import { startTracing, stopTracing } from '../../src/start.ts';

if (!(await startTracing({ service: 'traced-service' }))) throw new Error('tracing did not start');
const { default: express } = await import('express');
const { default: pg } = await import('pg');

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
const app = express();
app.use(express.json());
app.get('/things/:id', async (req, res) => {
  const { rows } = await pool.query('select $1::int as id', [Number(req.params.id)]);
  res.json(rows[0]);
});
app.get('/stop', async (_req, res) => {
  res.end();
  await pool.end();
  await stopTracing();
  process.exit(0);
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
