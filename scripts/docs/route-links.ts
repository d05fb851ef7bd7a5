// The reference is rendered at build time with its routes as paths (`/section/errors`, `/keys`),
// and hydrated in the browser under a hash router, which renders the same links `#/section/errors`.
// Hydrating keeps the attributes it finds, so the page kept links that a click follows (the
// renderer routes it) but that a copied link, a new tab, a bookmark or a crawler would take to the
// server's root. The built links are given the form the browser renders. Once the renderer builds
// them so itself, this finds nothing to change and can go (Redocly CLI 2.77.0, Redoc 3.0.1 do not).

/** The page with each link to a route of its own (a path from the root) as that route's fragment. */
export function hashRouteLinks(html: string): string {
  return html.replace(/(<a\s(?:[^>]*?\s)?href=")\/(?!\/)/g, '$1#/');
}
