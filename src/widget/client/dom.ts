type Attrs = Record<string, string | boolean | undefined>;
type Child = Node | string;

/**
 * Builds an element. Strings become text nodes (never markup): the widget has no innerHTML
 * anywhere, so model and knowledge-base text cannot become elements or run script.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === true) {
      element.setAttribute(name, '');
    } else if (typeof value === 'string') {
      element.setAttribute(name, value);
    }
  }
  element.append(...children);
  return element;
}

const SVG = 'http://www.w3.org/2000/svg';

/** The chat-bubble icon of the floating button (decorative: the button has its own label). */
export function chatIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute(
    'd',
    'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 6v2h2V9H7zm4 0v2h2V9h-2zm4 0v2h2V9h-2z',
  );
  svg.append(path);
  return svg;
}

/** Resolves the topic-URL template for one topic; only http(s) targets become links. */
export function topicHref(template: string, id: string): string | undefined {
  try {
    const url = new URL(template.split('{id}').join(encodeURIComponent(id)), document.baseURI);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
