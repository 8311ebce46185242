import { ChatRequestError, streamChat } from './chat-client';
import {
  type ChatAction,
  type ChatFailure,
  type ChatState,
  historyFor,
  INITIAL_STATE,
  isBusy,
  reduce,
} from './chat-state';
import { chatIcon, h } from './dom';
import { ExchangeView } from './exchange-view';
import { CSS } from './styles';

/** Returns the employee's bearer token for `CHAT_AUTH=jwt` (called before every question). */
export type TokenProvider = () => string | undefined | Promise<string | undefined>;

/** Detail of the cancellable `r42-citation` event a pill fires before navigating. */
export interface CitationEventDetail {
  id: string;
  title: string;
  url: string;
}

const DEFAULT_TOPIC_URL = '/knowledge/topics/{id}';

let sheet: CSSStyleSheet | undefined;

/**
 * `<r42-chat>`: the R42 floating button and chat drawer. Attributes: `endpoint` (default
 * `/chat` on the page's origin), `user-id`, `topic-url` (`{id}` is replaced), `company-name`,
 * `history` (send earlier answers of the open drawer as the spec's "last N messages").
 * Property: `tokenProvider` for `CHAT_AUTH=jwt`. Everything is cleared when the drawer closes.
 */
export class R42Chat extends HTMLElement {
  static readonly observedAttributes = ['company-name'];

  /** Called before every question when set; its token goes out as `Authorization: Bearer`. */
  tokenProvider: TokenProvider | undefined;

  private state: ChatState = INITIAL_STATE;
  private inflight: AbortController | undefined;
  private views: ExchangeView[] = [];
  private readonly fab = h('button', {
    type: 'button',
    class: 'fab',
    'aria-label': 'R42 knowledge chat',
    'aria-expanded': 'false',
    'aria-controls': 'r42-drawer',
  });
  private readonly heading = h('h2', { id: 'r42-title' });
  private readonly log = h('div', {
    class: 'log',
    role: 'log',
    'aria-live': 'polite',
    'aria-labelledby': 'r42-title',
  });
  private readonly hint = h('p', { class: 'hint' });
  private readonly input = h('input', {
    id: 'r42-input',
    type: 'text',
    autocomplete: 'off',
    maxlength: '2000',
    placeholder: 'Ask a question…',
  });
  private readonly send = h('button', { type: 'submit', class: 'send' }, 'Send');
  private readonly drawer = h('section', {
    id: 'r42-drawer',
    class: 'drawer',
    role: 'dialog',
    'aria-modal': 'false', // a drawer beside the app, not a modal: the page stays usable
    'aria-labelledby': 'r42-title',
  });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function') {
      sheet ??= new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
    } else {
      root.append(h('style', {}, CSS)); // older engines; needs style-src 'unsafe-inline'
    }
    const close = h('button', { type: 'button', class: 'close', 'aria-label': 'Close chat' }, '×');
    const form = h(
      'form',
      {},
      h('label', { class: 'sr', for: 'r42-input' }, 'Your question'),
      this.input,
      this.send,
    );
    this.fab.append(chatIcon());
    this.drawer.append(h('header', {}, this.heading, close), this.log, form);
    root.append(this.fab, this.drawer);

    this.fab.addEventListener('click', () => (this.state.open ? this.close() : this.open()));
    close.addEventListener('click', () => this.close());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.ask(this.input.value);
    });
    this.renderTitle();
    this.render();
  }

  attributeChangedCallback(): void {
    this.renderTitle();
  }

  disconnectedCallback(): void {
    this.close();
  }

  /** Opens the drawer and moves focus to its input. */
  open(): void {
    if (this.state.open) {
      return;
    }
    this.dispatch({ type: 'open' });
    document.addEventListener('pointerdown', this.onOutside, true);
    document.addEventListener('keydown', this.onKey, true);
    this.input.focus();
  }

  /** Closes the drawer, aborts an answer in flight and forgets everything. */
  close(): void {
    const hadFocus = this.matches(':focus-within');
    this.inflight?.abort(); // drops the connection: the server stops its model call
    this.inflight = undefined;
    document.removeEventListener('pointerdown', this.onOutside, true);
    document.removeEventListener('keydown', this.onKey, true);
    this.input.value = '';
    this.dispatch({ type: 'close' });
    if (hadFocus) {
      this.fab.focus();
    }
  }

  /** Asks a question, as if typed and sent (ignored while an answer is in flight). */
  ask(question: string): void {
    if (!this.state.open || isBusy(this.state)) {
      return;
    }
    this.dispatch({ type: 'ask', question, keepHistory: this.hasAttribute('history') });
    if (isBusy(this.state)) {
      this.input.value = '';
      void this.run();
    }
  }

  private readonly onOutside = (event: Event) => {
    if (!event.composedPath().includes(this)) {
      this.close();
    }
  };

  private readonly onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      this.close();
    }
  };

  /** Runs the request the state asks for; results of a superseded request are dropped. */
  private async run(): Promise<void> {
    const controller = new AbortController();
    this.inflight?.abort();
    this.inflight = controller;
    const apply = (action: ChatAction) => {
      if (this.inflight === controller) {
        this.dispatch(action);
      }
    };
    try {
      const token = this.tokenProvider ? await this.tokenProvider() : undefined;
      const userId = this.getAttribute('user-id') ?? '';
      if (!userId) {
        throw new ChatRequestError({
          code: 'missing_user_id',
          message: 'R42 is not set up on this page (no user-id).',
        });
      }
      const events = streamChat({
        endpoint: this.getAttribute('endpoint') || '/chat',
        query: this.state.exchanges.at(-1)?.question ?? '',
        userId,
        history: this.hasAttribute('history') ? historyFor(this.state) : undefined,
        token,
        signal: controller.signal,
      });
      for await (const event of events) {
        apply({ type: 'event', event });
      }
      apply({ type: 'ended' });
    } catch (error) {
      if (!controller.signal.aborted) {
        apply({ type: 'failed', failure: failureOf(error) });
      }
    } finally {
      if (this.inflight === controller) {
        this.inflight = undefined;
      }
    }
  }

  private dispatch(action: ChatAction): void {
    const next = reduce(this.state, action);
    if (next !== this.state) {
      this.state = next;
      this.render();
    }
  }

  private renderTitle(): void {
    const company = this.getAttribute('company-name')?.trim();
    const scope = company ? `${company} knowledge base` : 'Knowledge base';
    this.heading.replaceChildren('Ask R42', h('span', { class: 'sub' }, scope));
    this.hint.textContent = `Ask about how we work${company ? ` at ${company}` : ''}: answers come from the ${scope.toLowerCase()}, with links to the topics.`;
  }

  private render(): void {
    const { open, exchanges } = this.state;
    this.drawer.classList.toggle('open', open);
    this.fab.setAttribute('aria-expanded', String(open));
    const busy = isBusy(this.state);
    this.send.disabled = busy;
    // Busy while streaming: screen readers announce the answer once, when complete.
    this.log.setAttribute('aria-busy', String(busy));
    while (this.views.length > exchanges.length) {
      this.views.pop()?.root.remove();
    }
    if (exchanges.length === 0) {
      this.log.replaceChildren(this.hint);
    } else {
      this.hint.remove();
    }
    exchanges.forEach((exchange, i) => {
      let view = this.views[i];
      if (!view) {
        view = new ExchangeView(this.getAttribute('topic-url') || DEFAULT_TOPIC_URL, {
          retry: () => this.retry(),
          citation: (id, title, url) => this.citation({ id, title, url }),
        });
        this.views.push(view);
        this.log.append(view.root);
      }
      view.update(exchange);
    });
    this.log.scrollTop = this.log.scrollHeight;
  }

  private retry(): void {
    this.dispatch({ type: 'retry' });
    if (isBusy(this.state)) {
      void this.run();
    }
  }

  /** Fires `r42-citation`; a single-page app cancels it and routes to the topic itself. */
  private citation(detail: CitationEventDetail): boolean {
    return this.dispatchEvent(
      new CustomEvent('r42-citation', { detail, bubbles: true, composed: true, cancelable: true }),
    );
  }
}

function failureOf(error: unknown): ChatFailure {
  return error instanceof ChatRequestError
    ? error.failure
    : { code: 'client_error', message: 'Something went wrong in the chat. Please try again.' };
}
