import { eventBus, filterForType, subjectFor, subjectsOfType, typeOfSubject } from './bus.ts';

describe('the bus subjects', () => {
  const bus = eventBus('test1');

  it('puts a vote.cast of a session that reveals by itself under a qualified subject, any other under its type', () => {
    expect(subjectFor(bus, 'vote.cast', { auto_reveal: true })).toBe('test1.vote.cast.auto');
    expect(subjectFor(bus, 'vote.cast', { auto_reveal: false })).toBe('test1.vote.cast');
    expect(subjectFor(bus, 'vote.cast', {})).toBe('test1.vote.cast');
    expect(subjectFor(bus, 'vote.cast', null)).toBe('test1.vote.cast');
    expect(subjectFor(bus, 'vote.cast')).toBe('test1.vote.cast');
    // Other types never take a qualifier, whatever their data says.
    expect(subjectFor(bus, 'story.revealed', { auto_reveal: true })).toBe('test1.story.revealed');
    expect(subjectFor(bus, 'constructor', { auto_reveal: true })).toBe('test1.constructor');
  });

  it('reads the type back from either subject, and leaves other last words alone', () => {
    expect(typeOfSubject(bus, 'test1.vote.cast.auto')).toBe('vote.cast');
    expect(typeOfSubject(bus, 'test1.vote.cast')).toBe('vote.cast');
    expect(typeOfSubject(bus, 'test1.story.revealed')).toBe('story.revealed');
    expect(typeOfSubject(bus, 'test1.story.revealed.auto')).toBe('story.revealed.auto');
    expect(typeOfSubject(bus, 'test1.vote.cast.manual')).toBe('vote.cast.manual');
    expect(typeOfSubject(bus, 'test1.auto')).toBe('auto');
  });

  it('takes every event of a type with one filter, and lets its publisher use both subjects', () => {
    expect(filterForType(bus, 'vote.cast')).toBe('test1.vote.>');
    expect(filterForType(bus, 'story.revealed')).toBe('test1.story.revealed');
    expect(filterForType(bus, 'session.>')).toBe('test1.session.>');
    expect(subjectsOfType(bus, 'vote.cast')).toEqual(['test1.vote.cast', 'test1.vote.cast.auto']);
    expect(subjectsOfType(bus, 'story.revealed')).toEqual(['test1.story.revealed']);
  });
});
