import { h } from '../../widget/client/dom';
import { ApiError, InspectorApi } from './api';
import { renderBundle } from './bundle-view';
import { renderPoolTable } from './pool-table';
import { renderWaterfall } from './waterfall';

const api = new InspectorApi();
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const form = byId<HTMLFormElement>('ask');
const keyInput = byId<HTMLInputElement>('api-key');
const contactSelect = byId<HTMLSelectElement>('contact');
const contactId = byId<HTMLInputElement>('contact-id');
const transcript = byId<HTMLTextAreaElement>('transcript');
const poolK = byId<HTMLInputElement>('pool-k');
const finalK = byId<HTMLInputElement>('final-k');
const timeoutMs = byId<HTMLInputElement>('timeout-ms');
const status = byId<HTMLParagraphElement>('status');
const run = byId<HTMLButtonElement>('run');

function say(text: string, error = false): void {
  status.textContent = text;
  status.classList.toggle('error', error);
}

const explainError = (error: unknown): string =>
  error instanceof ApiError
    ? error.status === 401
      ? 'The service needs an API key: type one above.'
      : `${error.code}: ${error.message}`
    : 'The request failed.';

/** Fills the contact list from `GET /contacts` (again whenever the key changes). */
async function loadContacts(): Promise<void> {
  try {
    const { contacts } = await api.contacts();
    contactSelect.replaceChildren(
      h('option', { value: '' }, 'No contact: all history the key may read'),
      ...contacts.map((c) =>
        h(
          'option',
          { value: c.contact_uid },
          c.name ? `${c.name} (${c.contact_uid})` : c.contact_uid,
        ),
      ),
    );
    document.body.dataset.contacts = String(contacts.length);
  } catch (error) {
    say(explainError(error), true);
  }
}

const intOr = (input: HTMLInputElement): number | undefined => {
  const n = Number.parseInt(input.value, 10);
  return Number.isInteger(n) ? n : undefined;
};

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = transcript.value.trim();
  if (!text) {
    say('Type a transcript first.', true);
    transcript.focus();
    return;
  }
  const contact = contactId.value.trim() || contactSelect.value || undefined;
  run.disabled = true;
  say('Building…');
  void api
    .explain({
      transcript: text,
      contact_uid: contact,
      pool_k: intOr(poolK),
      final_k: intOr(finalK),
      timeout_ms: intOr(timeoutMs),
    })
    .then((bundle) => {
      renderBundle(byId('bundle'), bundle);
      renderWaterfall(byId('waterfall'), bundle.explain?.stages ?? [], bundle.meta.elapsed_ms);
      renderPoolTable(byId('pool'), bundle.explain?.candidates ?? []);
      const kept = bundle.explain?.candidates.filter((c) => c.outcome === 'kept').length ?? 0;
      say(
        `Built in ${bundle.meta.elapsed_ms} ms: ${bundle.explain?.candidates.length ?? 0} candidates, ${kept} kept${bundle.meta.partial ? ', partial' : ''}.`,
      );
      document.body.dataset.state = 'done';
    })
    .catch((error: unknown) => {
      say(explainError(error), true);
      document.body.dataset.state = 'error';
    })
    .finally(() => {
      run.disabled = false;
    });
});

keyInput.addEventListener('change', () => {
  api.key = keyInput.value.trim();
  void loadContacts();
});

void loadContacts();
