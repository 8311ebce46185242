/**
 * Deepest nesting a request body may have. Our deepest DTO (a /context/prompt bundle)
 * nests 4 levels; class-transformer recurses once per level and overflows the stack at
 * about 1,500, which would surface as a 500.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * True when `value` nests arrays/objects deeper than `max`. Iterative, so the check itself
 * cannot overflow the stack, and it stops at the first branch past the limit.
 */
export function exceedsDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') {
      continue;
    }
    if (depth >= max) {
      return true;
    }
    for (const child of Object.values(node as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') {
        stack.push([child, depth + 1]);
      }
    }
  }
  return false;
}
