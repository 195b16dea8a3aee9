import { eventSchemas, type EventType } from '@pp/contracts';
import { brokerPermissions, brokerUserNames, brokerUsers } from './broker-permissions.ts';

describe('broker permissions', () => {
  it('gives every event type exactly one publisher', () => {
    const publishers = (type: EventType) =>
      brokerUserNames.filter((u) => (brokerUsers[u].publishes as readonly string[]).includes(type));
    for (const type of Object.keys(eventSchemas) as EventType[])
      expect([type, publishers(type).length]).toEqual([type, 1]);
  });

  it('lets a unit publish its events and dead letters on the bus of its prefix, and nothing of another unit', () => {
    const stories = brokerPermissions('stories', 'test1');
    expect(stories.publish).toEqual(
      expect.arrayContaining(['test1.story.revealed', 'test1-dlq.stories-votes.>', '$JS.API.>']),
    );
    expect(stories.publish).not.toContain('test1.session.created');
    for (const wide of ['>', 'test1.>', 'test1.story.>']) expect(stories.publish).not.toContain(wide);
    expect(stories.subscribe).toEqual([
      'test1.session.>',
      'test1.participant.left',
      'test1.participant.updated',
      'test1.vote.cast.auto',
      'test1.countdown.>',
      '_INBOX.>',
    ]);
    expect(brokerPermissions('gateway').publish).toEqual([]);
  });

  it('lets the sessions unit publish vote.cast under both its subjects, and webhooks read them with one filter', () => {
    const sessions = brokerPermissions('sessions', 'test1').publish;
    expect(sessions).toEqual(expect.arrayContaining(['test1.vote.cast', 'test1.vote.cast.auto']));
    expect(sessions).not.toContain('test1.vote.>');
    expect(brokerPermissions('webhooks', 'test1').subscribe).toEqual(
      expect.arrayContaining(['test1.vote.>', 'test1.story.revealed']),
    );
  });
});
