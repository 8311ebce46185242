import { R42Chat } from './r42-chat';

export { R42Chat };
export type { CitationEventDetail, TokenProvider } from './r42-chat';

// Defining twice throws; a page that loads the script twice (two bundles) keeps the first.
if (!customElements.get('r42-chat')) {
  customElements.define('r42-chat', R42Chat);
}
