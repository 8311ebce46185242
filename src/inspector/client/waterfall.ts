import { h } from '../../widget/client/dom';
import { type Stage } from './types';

/**
 * The stages as a waterfall: one row per stage, its bar placed by start and length on a
 * shared time axis (live and retrieval run side by side). The bars are decoration; each
 * row's text says the same in words. Bars are sized through the CSSOM, which the strict CSP
 * allows (it refuses style attributes, not `element.style`).
 */
export function renderWaterfall(
  host: HTMLElement,
  stages: readonly Stage[],
  elapsedMs: number,
): void {
  const end = Math.max(elapsedMs, ...stages.map((s) => s.start_ms + s.ms), 1);
  const list = h('ol', { class: 'waterfall', 'aria-label': `Stages over ${elapsedMs} ms` });
  for (const s of stages) {
    const fill = h('span', { class: `bar-fill ${s.lane}` });
    fill.style.left = `${(100 * s.start_ms) / end}%`;
    fill.style.width = `${(100 * s.ms) / end}%`;
    list.append(
      h(
        'li',
        { 'data-stage': s.name },
        h(
          'span',
          {},
          `${s.name}: ${s.ms} ms from ${s.start_ms} ms${s.lane === 'main' ? '' : ` (${s.lane})`}`,
        ),
        h('span', { class: 'track', 'aria-hidden': 'true' }, fill),
      ),
    );
  }
  host.replaceChildren(list);
}
