import { randomUUID } from 'node:crypto';
import { importedStoryId, mayBeImported } from './story-ids.ts';

describe('imported story ids', () => {
  const session = randomUUID();

  it('gives an issue the same name-based id every time, and another issue another', () => {
    const id = importedStoryId(session, 'github', '42');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(importedStoryId(session, 'github', '42')).toBe(id);
    expect(importedStoryId(session, 'github', '43')).not.toBe(id);
    expect(importedStoryId(session, 'jira', '42')).not.toBe(id);
  });

  it("tells the ids an import gives from the stories unit's own random ones", () => {
    for (let i = 0; i < 200; i++) {
      expect(mayBeImported(importedStoryId(session, 'csv', String(i)))).toBe(true);
      expect(mayBeImported(randomUUID())).toBe(false);
    }
  });
});
