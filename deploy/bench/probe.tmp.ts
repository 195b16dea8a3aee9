import pg from 'pg';
import { storyText } from './story-texts.ts';
import { benchSystem, json } from './whole-system.ts';
const system = benchSystem();
try {
  const gw = await system.start();
  const { token } = await json('POST', `${gw}/auth/register`, { email: `p${Date.now()}@example.test`, password: 'bench-password', name: 'P' });
  const { session: s } = await json('POST', `${gw}/sessions`, { name: 'x' }, token);
  const ids: number[] = [];
  for (let v = 0; v < 4; v++) ids.push((await json('POST', `${gw}/sessions/${s.code}/join`, { name: `Voter ${v}` })).participant.id);
  for (let i = 0; i < 200; i++) {
    const { story } = await json('POST', `${gw}/sessions/${s.code}/stories`, storyText(99000 + i), token);
    if (i >= 120) continue;
    for (const p of ids) await json('POST', `${gw}/sessions/${s.code}/vote`, { participant_id: p, vote: '5' });
    await json('POST', `${gw}/stories/${story.id}/reveal`, undefined, token);
  }
  const c = new pg.Client({ connectionString: system.databaseOf('stories') }); await c.connect();
  const { rows } = await c.query(`select id, title, description, acceptance_criteria, status, position,
            case when status = 'revealed' then final_estimate end as final_estimate,
            case when status = 'revealed' then revealed_at end as revealed_at,
            case when status = 'revealed' then coalesce(jsonb_path_query_array(votes, '$[*].value'), '[]') else '[]' end as votes
       from stories where session_id = $1 order by position`, [s.id]);
  const body = JSON.stringify({ success: true, stories: rows, data: { stories: rows } });
  console.log('rows', rows.length, 'internal body bytes', Buffer.byteLength(body));
  let t = performance.now(); for (let i = 0; i < 200; i++) JSON.stringify({ success: true, stories: rows, data: { stories: rows } }); console.log('stringify ms', (performance.now() - t) / 200);
  const buf = Buffer.from(body);
  t = performance.now(); for (let i = 0; i < 200; i++) buf.toString('utf8'); console.log('toString ms', (performance.now() - t) / 200);
  t = performance.now(); for (let i = 0; i < 200; i++) JSON.parse(body); console.log('parse ms', (performance.now() - t) / 200);
  await c.end();
} finally { await system.stop(); }
