// Security compared: each alternative requirement (scheme -> roles) of an operation or of the whole
// document, and the security schemes the components define.
import type { Findings } from './findings.js';

type Json = Record<string, unknown>;
export type Security = Record<string, string[]>[];

const describeRequirement = (requirement: Record<string, string[]>) =>
  Object.entries(requirement)
    .map(([scheme, roles]) => `${scheme}: [${roles.join(', ')}]`)
    .join(' and ');
const sameSchemes = (a: Record<string, string[]>, b: Record<string, string[]>) =>
  Object.keys(a).sort().join() === Object.keys(b).sort().join();
const same = (a: Record<string, string[]>, b: Record<string, string[]>) =>
  sameSchemes(a, b) && Object.keys(a).every((s) => [...(a[s] ?? [])].sort().join() === [...(b[s] ?? [])].sort().join());
const securityOf = (holder: Json) => (holder.security ?? []) as Security;

/**
 * The alternatives of the security requirement written on an operation or on the whole document, as
 * before and after: `prefix` is `api-security` for an operation's own, `api-global-security` for the
 * document's. `nowRequired`: credentials are now needed where none were, which the project reports
 * louder than oasdiff.
 */
export function compareSecurity(
  holderBefore: Json,
  holderAfter: Json,
  prefix: 'api-security' | 'api-global-security',
  operation: string | undefined,
  findings: Findings,
  nowRequired = false,
): void {
  const [before, after] = [securityOf(holderBefore), securityOf(holderAfter)];
  const where = prefix === 'api-security' ? 'security' : 'global security';
  for (const was of before) {
    if (after.some((is) => same(was, is))) continue;
    // The same schemes with other roles, unless that requirement was already an alternative.
    const counterpart = after.find((is) => sameSchemes(was, is) && !before.some((other) => same(other, is)));
    if (!counterpart) {
      findings.add(`${prefix}-removed`, operation, where, `alternative ${describeRequirement(was)} removed`);
      continue;
    }
    const rolesAdded = Object.keys(counterpart).some((s) => (counterpart[s] ?? []).some((r) => !was[s]?.includes(r)));
    findings.add(
      `${prefix}-scope-${rolesAdded ? 'added' : 'removed'}`,
      operation,
      where,
      `${describeRequirement(was)} -> ${describeRequirement(counterpart)}`,
    );
  }
  for (const is of after)
    if (!before.some((was) => same(was, is) || sameSchemes(was, is)))
      findings.add(`${prefix}-added`, operation, where, `alternative ${describeRequirement(is)} added`, nowRequired);
}

const flowsOf = (scheme: Json) => (scheme.flows ?? {}) as Record<string, Json>;

/** The security schemes of the components: added, removed, another type, other OAuth URLs or scopes. */
export function compareSecuritySchemes(before: Json, after: Json, findings: Findings): void {
  const [schemesBefore, schemesAfter] = [before, after].map(
    (document) => ((document.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, Json>,
  ) as [Record<string, Json>, Record<string, Json>];
  const add = (id: string, name: string, what: string) =>
    findings.add(id, undefined, `components securitySchemes ${name}`, what);
  for (const name of Object.keys(schemesAfter))
    if (!(name in schemesBefore)) add('api-security-component-added', name, 'security scheme added');
  for (const [name, was] of Object.entries(schemesBefore)) {
    const is = schemesAfter[name];
    if (!is) {
      add('api-security-component-removed', name, 'security scheme removed');
      continue;
    }
    if (was.type !== is.type)
      add('api-security-component-type-changed', name, `type ${String(was.type)} -> ${String(is.type)}`);
    const [flowsBefore, flowsAfter] = [flowsOf(was), flowsOf(is)];
    for (const [flow, from] of Object.entries(flowsBefore)) {
      const to = flowsAfter[flow];
      if (!to) continue;
      if (from.authorizationUrl !== to.authorizationUrl)
        add('api-security-component-oauth-url-changed', name, `${flow} authorizationUrl changed`);
      if (from.tokenUrl !== to.tokenUrl)
        add('api-security-component-oauth-token-url-changed', name, `${flow} tokenUrl changed`);
      const [scopesBefore, scopesAfter] = [(from.scopes ?? {}) as Json, (to.scopes ?? {}) as Json];
      for (const scope of Object.keys(scopesAfter))
        if (!(scope in scopesBefore)) add('api-security-component-oauth-scope-added', name, `scope ${scope} added`);
      for (const scope of Object.keys(scopesBefore)) {
        if (!(scope in scopesAfter)) add('api-security-component-oauth-scope-removed', name, `scope ${scope} removed`);
        else if (scopesBefore[scope] !== scopesAfter[scope])
          add('api-security-component-oauth-scope-changed', name, `scope ${scope} described otherwise`);
      }
    }
  }
}
