import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreateWebhookEndpointRequest, WebhookEventType, type CreateWebhookEndpointResponse } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { Alert } from '@claims/ui/components';
import { api } from '../../shared/api.js';
import { webhookQueries } from '../queries.js';
import { ProblemList } from '../../shared/components/ProblemList.js';

const problemOf = (path: PropertyKey | undefined) =>
  path === 'url'
    ? "Enter the receiver's full http or https URL."
    : path === 'description'
      ? 'Keep the description to 500 characters.'
      : 'Check the event types.';

/** URL, description and the event types to send (none chosen: every type); the secret comes back once. */
export function AddEndpointForm({
  storeId,
  onCreated,
}: {
  storeId: string;
  onCreated: (endpoint: CreateWebhookEndpointResponse) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<WebhookEventType>>(() => new Set());
  const [problems, setProblems] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: (body: CreateWebhookEndpointRequest) => api.createWebhookEndpoint(storeId, body),
    onSuccess: async (endpoint) => {
      setUrl('');
      setDescription('');
      setChosen(new Set());
      onCreated(endpoint);
      await client.invalidateQueries({ queryKey: webhookQueries.endpoints(storeId).queryKey });
    },
  });
  function toggle(type: WebhookEventType, on: boolean) {
    setChosen((previous) => {
      const next = new Set(previous);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });
  }
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const eventTypes = WebhookEventType.options.filter((t) => chosen.has(t));
    const parsed = CreateWebhookEndpointRequest.safeParse({
      url: url.trim(),
      description: description.trim() || null,
      eventTypes: eventTypes.length > 0 ? eventTypes : null,
    });
    if (!parsed.success) {
      setProblems([...new Set(parsed.error.issues.map((issue) => problemOf(issue.path[0])))]);
      return;
    }
    setProblems([]);
    create.mutate(parsed.data);
  }
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add an endpoint</h2>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="field field-wide">
          <label htmlFor={`${id}-url`}>Endpoint URL</label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            maxLength={2000}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            aria-describedby={`${id}-url-hint`}
          />
          <p id={`${id}-url-hint`} className="hint">
            Where events are POSTed, e.g. https://example.com/webhooks. Private network addresses are refused.
          </p>
        </div>
        <div className="field field-wide">
          <label htmlFor={`${id}-description`}>Description</label>
          <input
            id={`${id}-description`}
            type="text"
            maxLength={500}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <fieldset className="field">
          <legend>Event types</legend>
          <p className="hint" id={`${id}-types-hint`}>
            Choose none to receive every event type.
          </p>
          <div
            className="permission-list"
            role="group"
            aria-describedby={`${id}-types-hint`}
            aria-label="Event types to send"
          >
            {WebhookEventType.options.map((type) => (
              <label key={type} className="checkbox">
                <input type="checkbox" checked={chosen.has(type)} onChange={(e) => toggle(type, e.target.checked)} />
                <code>{type}</code>
              </label>
            ))}
          </div>
        </fieldset>
        <ProblemList problems={problems} />
        {create.isError ? <Alert>{errorText(create.error)}</Alert> : null}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            Add endpoint
          </button>
        </div>
      </form>
    </section>
  );
}
