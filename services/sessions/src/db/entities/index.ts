import { eventEntities } from '@pp/events';
import { Folder } from './folder.entity.ts';
import { Participant } from './participant.entity.ts';
import { RoomEvent } from './room-event.entity.ts';
import { Session, type SessionRecord } from './session.entity.ts';
import { Template, type TemplateStory } from './template.entity.ts';
import { Workspace } from './workspace.entity.ts';

export {
  Folder,
  Participant,
  RoomEvent,
  Session,
  Template,
  Workspace,
  type SessionRecord,
  type TemplateStory,
};
/** Rounds and votes are reached with SQL only: the vote path and the upserts need it. */
export const entities = [Session, Participant, RoomEvent, Folder, Workspace, Template, ...eventEntities];
