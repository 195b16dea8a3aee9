import { startGithubFake } from './fakes/github.fake.ts';
import { connectGithub } from './support/github.ts';
import { as, startIntegrations, type IntegrationsHarness } from './support/integrations-harness.ts';

/** Texts of a tracker that a story cannot hold as they are: what a preview shows imports all the same. */
describe("a tracker's texts that no story could hold as they are", () => {
  let h: IntegrationsHarness;
  let fake: Awaited<ReturnType<typeof startGithubFake>>;
  beforeAll(async () => {
    h = await startIntegrations();
    fake = await startGithubFake({ issues: 2 });
  });
  afterAll(async () => {
    await fake.stop();
    await h.stop();
  });

  it('are cut between characters and lose NUL characters, so the preview imports as items and by ids', async () => {
    // 198 letters, then emoji: the 200-character cut falls inside the first of them
    fake.issues[0]!.title = `${'a'.repeat(198)}${'😀'.repeat(10)}`;
    fake.issues[0]!.labels = [{ name: `${'b'.repeat(98)}🎯🎯` }, { name: 'half \ud83d' }];
    fake.issues[1]!.body = 'before\u0000after';
    const s = await h.session();
    const connection = await connectGithub(h, s.owner, fake.apiUrl);
    const preview = await h.client.post('/integrations/import-preview', {
      body: { connection_id: connection.id },
      ...as(s.owner),
    });
    expect(preview.status).toBe(200);
    const [first, second] = preview.body.issues;
    expect(first.title).toBe(`${'a'.repeat(198)}…`);
    expect(first.labels).toEqual([`${'b'.repeat(98)}…`, 'half \ufffd']);
    expect(second.description).toBe('beforeafter');

    const importInto = (issues: unknown[]) =>
      h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
        body: { connection_id: connection.id, issues },
        ...as(s.owner),
      });
    const asItems = await importInto(preview.body.issues);
    expect([asItems.status, asItems.body.errors]).toEqual([201, undefined]);
    expect(asItems.body.stories.map((story: { title: string }) => story.title)).toEqual([
      first.title,
      'Issue 2',
    ]);
    // fetched again by their ids, they are fitted the same way (and are the stories just imported)
    const byIds = await importInto(['1', '2']);
    expect([byIds.status, byIds.body.errors]).toEqual([201, undefined]);
    expect(byIds.body.stories.map((story: { already_imported: boolean }) => story.already_imported)).toEqual([
      true,
      true,
    ]);
  });
});
