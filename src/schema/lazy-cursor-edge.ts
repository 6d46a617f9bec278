/**
 * An edge whose cursor is written when a client selects it: most selections of a list (50 products with their stock,
 * a page of lines) never ask for the cursor of every edge, and writing one is a base64 encoding per edge.
 */
export class LazyCursorEdge<T> {
  constructor(
    readonly node: T,
    private readonly position: number,
    private readonly format: (node: T, position: number) => string,
  ) {}

  get cursor(): string {
    return this.format(this.node, this.position);
  }
}
