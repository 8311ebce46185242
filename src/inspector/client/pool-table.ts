import { h } from '../../widget/client/dom';
import { type Column, type Direction, poolColumns, sortRows } from './pool-sort';
import { type Candidate } from './types';

const show = (value: number | string | null, digits?: number): string =>
  value === null
    ? '–'
    : typeof value === 'number' && digits !== undefined
      ? value.toFixed(digits)
      : String(value);

const outcomeText = (c: Candidate): string =>
  c.outcome === 'merged' && c.merged_into ? `merged into ${c.merged_into.slice(0, 8)}` : c.outcome;

/**
 * The pool as a table sortable by any column. Each header is a button (keyboard: Tab, then
 * Enter or Space), its `aria-sort` says the order; kept rows carry a class and say "kept"
 * in words, so the highlight is not colour alone. Text goes in as text nodes only.
 */
export function renderPoolTable(host: HTMLElement, rows: readonly Candidate[]): void {
  const columns = poolColumns(rows);
  let sortKey = 'score';
  let direction: Direction = 'descending';

  const table = h('table', { id: 'pool-table' });
  const caption = h('caption', { class: 'legend' });
  const head = h('thead');
  const body = h('tbody');
  table.append(caption, head, body);
  const region = h(
    'div',
    { class: 'scroll', role: 'region', 'aria-labelledby': 'pool-title', tabindex: '0' },
    table,
  );

  const draw = () => {
    const column = columns.find((c) => c.key === sortKey) as Column;
    caption.textContent = `${rows.length} candidates, sorted by ${column.label.toLowerCase()} (${direction}).`;
    head.replaceChildren(
      h(
        'tr',
        {},
        ...columns.map((c) => {
          const button = h('button', { type: 'button', 'data-key': c.key }, c.label);
          button.addEventListener('click', () => {
            direction =
              sortKey === c.key && direction === 'descending' ? 'ascending' : 'descending';
            sortKey = c.key;
            draw();
            head.querySelector<HTMLElement>(`button[data-key="${CSS.escape(c.key)}"]`)?.focus();
          });
          return h(
            'th',
            { scope: 'col', 'aria-sort': c.key === sortKey ? direction : 'none' },
            button,
          );
        }),
        h('th', { scope: 'col', class: 'text' }, 'Text (redacted)'),
      ),
    );
    body.replaceChildren(
      ...sortRows(rows, column, direction).map((row) =>
        h(
          'tr',
          {
            class:
              row.outcome === 'kept' ? 'kept' : row.outcome === 'merged' ? 'merged' : undefined,
            'data-id': row.id,
          },
          ...columns.map((c) =>
            h(
              'td',
              { class: c.key === 'outcome' ? 'outcome' : c.key === 'id' ? 'id' : undefined },
              c.key === 'outcome'
                ? outcomeText(row)
                : c.key === 'id'
                  ? row.id.slice(0, 8)
                  : show(c.value(row), c.digits),
            ),
          ),
          h('td', { class: 'text' }, row.content ?? '(left out: no time before the deadline)'),
        ),
      ),
    );
  };
  draw();
  host.replaceChildren(region);
}
