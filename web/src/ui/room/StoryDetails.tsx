import { useState } from 'preact/hooks';
import { editStory } from '../../api/endpoints.ts';
import type { RoomStory } from '../../api/types.ts';
import { t } from '../../i18n/i18n.ts';
import { Field, Problem, TextField, useAction } from '../common.tsx';

/** The open story's description and acceptance criteria, for everyone; the owner edits them in place. */
export function StoryDetails(props: { story: RoomStory; token: string | null; onChanged(): void }) {
  const { story, token } = props;
  const [editing, setEditing] = useState(false);
  const m = t();
  if (editing && token)
    return (
      <EditStory
        story={story}
        token={token}
        onDone={(changed) => {
          setEditing(false);
          if (changed) props.onChanged();
        }}
      />
    );
  return (
    <div class="story-details">
      {story.description && (
        <>
          <h3>{m.storyDescription}</h3>
          <p class="story-text" data-testid="story-description">
            {story.description}
          </p>
        </>
      )}
      {story.acceptance_criteria && (
        <>
          <h3>{m.storyAcceptance}</h3>
          <p class="story-text" data-testid="story-acceptance">
            {story.acceptance_criteria}
          </p>
        </>
      )}
      {token && (
        <button type="button" class="small" onClick={() => setEditing(true)}>
          {m.storyEdit}
        </button>
      )}
    </div>
  );
}

function EditStory(props: { story: RoomStory; token: string; onDone(changed: boolean): void }) {
  const { story } = props;
  const [title, setTitle] = useState(story.title);
  const [description, setDescription] = useState(story.description);
  const [criteria, setCriteria] = useState(story.acceptance_criteria);
  const action = useAction();
  const m = t();
  const save = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await editStory(story.id, props.token, {
        title: title.trim(),
        description,
        acceptance_criteria: criteria,
      });
      props.onDone(true);
    });
  };
  return (
    <form class="story-details story-edit" onSubmit={save} aria-label={m.storyEdit}>
      <TextField
        label={m.storyTitle}
        name="story-title-edit"
        required
        maxLength={200}
        value={title}
        onValue={setTitle}
      />
      <Field label={m.storyDescription}>
        <textarea
          name="story-description"
          rows={4}
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
      </Field>
      <Field label={m.storyAcceptance}>
        <textarea
          name="story-acceptance"
          rows={4}
          value={criteria}
          onInput={(e) => setCriteria(e.currentTarget.value)}
        />
      </Field>
      <div class="row">
        <button type="submit" class="primary" disabled={action.busy || !title.trim()}>
          {m.storySave}
        </button>
        <button type="button" disabled={action.busy} onClick={() => props.onDone(false)}>
          {m.storyCancel}
        </button>
      </div>
      <Problem error={action.error} />
    </form>
  );
}
