import { h } from '../../widget/client/dom';
import { type Bundle } from './types';

const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .map(([type, n]) => `${type} ${n}`)
    .join(', ') || 'none';

/** A live field as text: they are strings, numbers, booleans or null. */
const show = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : value === null || value === undefined
      ? '–'
      : JSON.stringify(value);

/** The bundle as the agent receives it: live contact fields, meta, then the excerpts. */
export function renderBundle(host: HTMLElement, bundle: Bundle): void {
  const { meta } = bundle;
  const contact = h('dl', { class: 'contact' });
  for (const [field, value] of Object.entries(bundle.contact)) {
    contact.append(h('dt', {}, field), h('dd', {}, show(value)));
  }
  const facts: Array<[string, string]> = [
    ['elapsed', `${meta.elapsed_ms} ms of ${meta.timeout_ms}`],
    ['partial', String(meta.partial)],
    ['reranker', `${meta.reranker}${meta.reranked ? '' : ' (not reranked)'}`],
    ['tokens', String(bundle.token_count)],
    ['dropped by budget', String(meta.dropped_excerpts)],
    ['redactions', counts(meta.redactions)],
  ];
  const redactionsOf = new Map((bundle.explain?.excerpts ?? []).map((e) => [e.id, e.redactions]));
  host.replaceChildren(
    h('h3', {}, 'Contact'),
    contact,
    h('ul', { class: 'meta' }, ...facts.map(([k, v]) => h('li', {}, h('strong', {}, `${k}:`), v))),
    h('h3', {}, `Excerpts (${bundle.historical_excerpts.length})`),
    ...(bundle.historical_excerpts.length === 0
      ? [h('p', { class: 'empty' }, 'No excerpt.')]
      : bundle.historical_excerpts.map((e) =>
          h(
            'article',
            { class: 'excerpt', 'data-id': e.id },
            h(
              'h4',
              {},
              `${e.rerank_score.toFixed(4)} · ${e.channel} · ${e.occurred_at.slice(0, 10)}${e.truncated ? ' · truncated' : ''} · redactions: ${counts(redactionsOf.get(e.id) ?? {})}`,
            ),
            h('pre', {}, e.content),
          ),
        )),
  );
}
