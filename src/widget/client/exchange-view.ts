import { type Exchange } from './chat-state';
import { h, topicHref } from './dom';

/** What the user may do from an exchange's view. */
export interface ExchangeHandlers {
  retry(): void;
  /** A pill was activated; return false to keep the browser from following the link. */
  citation(id: string, title: string, url: string): boolean;
}

/**
 * The DOM of one question and its answer, updated in place as the exchange changes: while
 * streaming only the answer's text node grows, so a screen reader's live region hears the
 * growth and the user's scroll position and focus are not disturbed.
 */
export class ExchangeView {
  readonly root = h('article', { class: 'ex' });
  private readonly answer = h('p', { class: 'a' });
  private readonly status = h('p', { class: 'status', role: 'status' });
  private tail: HTMLElement | undefined;
  private shown: Exchange | undefined;

  constructor(
    private readonly topicUrl: string,
    private readonly handlers: ExchangeHandlers,
  ) {}

  update(exchange: Exchange): void {
    if (this.shown === exchange) {
      return;
    }
    const before = this.shown;
    this.shown = exchange;
    if (before?.question !== exchange.question) {
      this.root.replaceChildren(
        h('p', { class: 'q' }, h('span', { class: 'sr' }, 'You asked: '), exchange.question),
        this.status,
        this.answer,
      );
    }
    this.status.textContent = exchange.status === 'waiting' ? 'R42 is looking this up…' : '';
    this.status.hidden = exchange.status !== 'waiting';
    // textContent, never innerHTML: `<img onerror=…>` in a passage stays visible, inert text.
    this.answer.textContent = exchange.answer;
    this.answer.hidden = exchange.answer === '';
    this.answer.className = exchange.status === 'out_of_scope' ? 'a oos' : 'a';
    if (before?.status !== exchange.status) {
      this.tail?.remove();
      this.tail = this.renderTail(exchange);
      if (this.tail) {
        this.root.append(this.tail);
      }
    }
  }

  /** Below the answer: the citation pills once it is complete, or the failure and a retry. */
  private renderTail(exchange: Exchange): HTMLElement | undefined {
    if (exchange.status === 'failed' && exchange.failure) {
      const retry = h('button', { type: 'button', class: 'retry' }, 'Try again');
      retry.addEventListener('click', () => this.handlers.retry());
      return h('p', { class: 'fail', role: 'alert' }, exchange.failure.message, retry);
    }
    if (exchange.status !== 'answered' || exchange.citations.length === 0) {
      return undefined;
    }
    const items = exchange.citations.flatMap((topic) => {
      const href = topicHref(this.topicUrl, topic.id);
      if (!href) {
        return [];
      }
      const link = h('a', { class: 'pill', href, 'data-topic-id': topic.id }, topic.title);
      link.addEventListener('click', (event) => {
        if (!this.handlers.citation(topic.id, topic.title, href)) {
          event.preventDefault();
        }
      });
      return [h('li', {}, link)];
    });
    return h('ul', { class: 'pills', 'aria-label': 'Sources' }, ...items);
  }
}
