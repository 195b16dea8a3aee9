/**
 * Room templates in the sessions unit alone. Making a session from a template with stories needs the
 * stories unit (e2e/templates.test.ts runs them together); here it cannot be reached, which must leave
 * no session behind.
 */
import { randomUUID } from 'node:crypto';
import { until } from '@pp/testing';
import { asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
beforeAll(async () => {
  h = await startSessions();
});
afterAll(() => h.stop());

const create = (owner: string, body: unknown) =>
  h.client.post('/workspace/templates', { body, headers: asUser(owner) });
const template = async (owner: string, body: Record<string, unknown> = {}) => {
  const res = await create(owner, { name: `Template ${randomUUID()}`, ...body });
  if (res.status !== 201) throw new Error(`create template answered ${res.status}: ${res.text}`);
  return res.body.template;
};
const fromTemplate = (owner: string, id: number | string, body: unknown = {}) =>
  h.client.post(`/workspace/templates/${id}/sessions`, { body, headers: asUser(owner) });
const sessionCount = async (owner: string) =>
  (
    (await h.runtime.db
      .fork()
      .getConnection()
      .execute('select count(*)::int as n from sessions where owner_id = ?', [owner])) as Array<{ n: number }>
  )[0]!.n;

describe('templates', () => {
  it('creates a template with its settings and stories in order, gets it, lists it, changes it and deletes it', async () => {
    const owner = randomUUID();
    const stories = [
      {
        title: 'Login page',
        description: 'Email and password',
        acceptance_criteria: 'Given a user\nWhen...',
      },
      { title: 'Logout' },
    ];
    const res = await create(owner, {
      name: 'Sprint planning',
      description: 'Every other Monday',
      settings: { voting_system: 'tshirt', auto_reveal: true },
      stories,
    });
    expect(res.status).toBe(201);
    const made = res.body.template;
    expect(made).toEqual({
      id: expect.any(Number),
      name: 'Sprint planning',
      description: 'Every other Monday',
      settings: { voting_system: 'tshirt', auto_reveal: true },
      stories_count: 2,
      stories: [stories[0], { title: 'Logout', description: '', acceptance_criteria: '' }],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await h.client.get(`/workspace/templates/${made.id}`, { headers: asUser(owner) });
    expect(got.body.template).toEqual(made);

    await template(owner, { name: 'Another' });
    const listed = await h.client.get('/workspace/templates?per_page=1', { headers: asUser(owner) });
    expect(listed.body.templates).toEqual([expect.objectContaining({ name: 'Another', stories_count: 0 })]);
    expect(listed.body.templates[0]).not.toHaveProperty('stories');
    expect(listed.body.meta).toEqual({ current_page: 1, per_page: 1, total: 2, last_page: 2 });

    const changed = await h.client.patch(`/workspace/templates/${made.id}`, {
      body: { settings: { record_vote_names: true }, stories: [{ title: 'Only this' }] },
      headers: asUser(owner),
    });
    expect(changed.status).toBe(200);
    expect(changed.body.template).toMatchObject({
      name: 'Sprint planning',
      settings: { record_vote_names: true },
      stories: [{ title: 'Only this', description: '', acceptance_criteria: '' }],
      stories_count: 1,
    });
    const deleted = await h.client.delete(`/workspace/templates/${made.id}`, { headers: asUser(owner) });
    expect(deleted.status).toBe(200);
    expect((await h.client.get(`/workspace/templates/${made.id}`, { headers: asUser(owner) })).status).toBe(
      404,
    );
  });

  it('refuses a name the owner uses already, in any case (409 duplicate)', async () => {
    const owner = randomUUID();
    await template(owner, { name: 'Refinement' });
    const again = await create(owner, { name: 'REFINEMENT' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('duplicate');
    expect((await create(randomUUID(), { name: 'Refinement' })).status).toBe(201);
    // The same name with its accent as a combining mark (U+0301) rather than an accented letter.
    await template(owner, { name: 'R\u00e9union' });
    const composed = await create(owner, { name: 'RE\u0301UNION' });
    expect([composed.status, composed.body.error?.code]).toEqual([409, 'duplicate']);
  });

  it('answers 403 for another owner’s template, 404 for an unknown one or an id no template can have', async () => {
    const theirs = await template(randomUUID());
    const owner = randomUUID();
    const headers = asUser(owner);
    expect((await h.client.get(`/workspace/templates/${theirs.id}`, { headers })).status).toBe(403);
    expect(
      (await h.client.patch(`/workspace/templates/${theirs.id}`, { body: { name: 'x' }, headers })).status,
    ).toBe(403);
    expect((await h.client.delete(`/workspace/templates/${theirs.id}`, { headers })).status).toBe(403);
    const used = await fromTemplate(owner, theirs.id);
    expect([used.status, used.body.error.code]).toEqual([403, 'forbidden']);
    for (const id of [2_147_483_647, 2_147_483_648, 1e15, 'abc', 0]) {
      expect((await h.client.get(`/workspace/templates/${id}`, { headers })).status).toBe(404);
      expect(
        (await h.client.patch(`/workspace/templates/${id}`, { body: { name: 'x' }, headers })).status,
      ).toBe(404);
      expect((await h.client.delete(`/workspace/templates/${id}`, { headers })).status).toBe(404);
      const made = await fromTemplate(owner, id);
      expect(made.status).toBe(404);
      expect(made.body.error.code).toBe('template_not_found');
    }
    expect(await sessionCount(owner)).toBe(0);
  });

  it('refuses bad input with 422 naming the field, never a 5xx', async () => {
    const owner = randomUUID();
    const cases: Array<[unknown, string]> = [
      [{}, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: ['a'] }, 'name'],
      [{ name: 'ok', stories: Array.from({ length: 101 }, (_, i) => ({ title: `S${i}` })) }, 'stories'],
      [{ name: 'ok', stories: [{ title: '' }] }, 'stories.0.title'],
      [{ name: 'ok', stories: [{ title: 'x'.repeat(201) }] }, 'stories.0.title'],
      [{ name: 'ok', stories: [{ title: 'a', description: 'x'.repeat(10_001) }] }, 'stories.0.description'],
      [{ name: 'ok', stories: [{ title: 'nul \u0000' }] }, 'stories.0.title'],
      [{ name: 'ok', settings: { voting_system: 'custom' } }, 'settings.custom_deck_values'],
      [{ name: 'ok', settings: { vote_by_minutes: -5 } }, 'settings.vote_by_minutes'],
      [{ name: 'ok', settings: { voteby_enabled: 1 } }, 'settings.voteby_enabled'],
    ];
    for (const [body, field] of cases) {
      const res = await create(owner, body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    for (const body of [
      { name: 'ok', owner_id: 'x' },
      { name: 'ok', stories: [{ title: 'a', status: 'revealed' }] },
    ]) {
      expect((await create(owner, body)).status).toBe(422);
    }
    const t = await template(owner);
    for (const body of [{ id: 1 }, { name: 'x', folder_id: 2_147_483_648 }, { voting_system: 'custom' }]) {
      const res = await fromTemplate(owner, t.id, body);
      expect(res.status).toBe(422);
    }
    expect(await sessionCount(owner)).toBe(0);
    expect((await h.client.get('/workspace/templates')).status).toBe(401);
  });
});

describe('a session from a template', () => {
  it('takes each setting from the request, else the template, else the workspace, else the product', async () => {
    const owner = randomUUID();
    const workspace = (
      await h.client.patch('/workspace', {
        body: { defaults: { voting_system: 'powers_of_two', record_vote_names: true, auto_reveal: true } },
        headers: asUser(owner),
      })
    ).body.workspace;
    const t = await template(owner, {
      name: 'Weekly',
      description: 'From the template',
      settings: { voting_system: 'tshirt', auto_reveal: false },
    });
    const res = await fromTemplate(owner, t.id, { require_participant_token: true, auto_reveal: true });
    expect(res.status).toBe(201);
    expect(res.body.stories).toEqual([]);
    expect(res.body.session).toMatchObject({
      name: 'Weekly',
      description: 'From the template',
      workspace_id: workspace.id,
      voting_system: 'tshirt', // the template over the workspace
      record_vote_names: true, // the workspace (the template does not name it)
      auto_reveal: true, // the request over the template
      require_participant_token: true, // the request
      voteby_enabled: false, // the product
      status: 'active',
    });
    const named = await fromTemplate(owner, t.id, { name: 'Named', description: 'Mine' });
    expect(named.body.session).toMatchObject({ name: 'Named', description: 'Mine' });
    const listed = await h.client.get('/sessions', { headers: asUser(owner) });
    expect(listed.body.meta.total).toBe(2);
  });

  it('cannot reach the stories unit: 503, and no session is left behind, announced or listed', async () => {
    const owner = randomUUID();
    const t = await template(owner, { stories: [{ title: 'First' }, { title: 'Second' }] });
    const res = await fromTemplate(owner, t.id, { name: 'Doomed' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: { code: 'stories_unavailable' } });
    expect(await sessionCount(owner)).toBe(0);
    expect((await h.client.get('/sessions', { headers: asUser(owner) })).body.sessions).toEqual([]);
    const discarded = await until(async () => h.eventsOf('session.discarded')[0]);
    expect(h.eventsOf('session.created').some((e) => e.data.session.id === discarded.data.session_id)).toBe(
      false,
    );
    expect((await h.client.get(`/sessions/${discarded.data.session_code}`)).status).toBe(404);
  });
});
