// The properties of an object schema compared: added, removed, made required or optional, made
// read-only or write-only, deprecated, and each one's own schema. A read-only property is not sent
// and a write-only one is not received: oasdiff names their changes apart, or not at all.
import { deprecationSunset } from './lifecycle.js';
import { inside, type SchemaComparison } from './schema-place.js';
import type { Schema } from './schema-types.js';

const STABILITY = ['draft', 'alpha', 'beta', 'stable'];

export function compareProperties(b: Schema, a: Schema, at: SchemaComparison): void {
  const { place, where, findings, depth } = at;
  const [propsBefore, propsAfter] = [
    (b.properties ?? {}) as Record<string, Schema>,
    (a.properties ?? {}) as Record<string, Schema>,
  ];
  const [requiredBefore, requiredAfter] = [
    new Set((b.required ?? []) as string[]),
    new Set((a.required ?? []) as string[]),
  ];
  const add = (id: string, name: string, what: string) => findings.add(id, place.operation, `${where}.${name}`, what);
  const side = place.side;
  const request = side === 'request';
  const header = place.in === 'header';
  const requiredness = (required: boolean) => (required ? 'required' : 'optional');

  for (const [name, was] of Object.entries(propsBefore)) {
    const is = propsAfter[name];
    const [wasRequired, isRequired] = [requiredBefore.has(name), requiredAfter.has(name)];
    if (!is) {
      if (request) {
        if (!was.readOnly) add('request-property-removed', name, 'property removed');
      } else if (was.writeOnly)
        add(`response-${requiredness(wasRequired)}-write-only-property-removed`, name, 'removed');
      else add(`response-${requiredness(wasRequired)}-property-removed`, name, 'property removed');
      continue;
    }
    if (wasRequired !== isRequired) {
      const made = isRequired ? 'made required' : 'made optional';
      if (request) {
        if (!is.readOnly)
          add(
            isRequired
              ? header
                ? 'request-header-property-became-required'
                : is.default !== undefined
                  ? 'request-property-became-required-with-default'
                  : 'request-property-became-required'
              : 'request-property-became-optional',
            name,
            made,
          );
      } else
        add(`response-${is.writeOnly ? 'write-only-' : ''}property-became-${requiredness(isRequired)}`, name, made);
    }
    for (const [flag, label] of [
      ['writeOnly', 'write-only'],
      ['readOnly', 'read-only'],
    ] as const)
      if (Boolean(was[flag]) !== Boolean(is[flag]))
        add(
          `${side}-${requiredness(isRequired)}-property-became-${is[flag] ? '' : 'not-'}${label}`,
          name,
          `${flag} ${is[flag] ? 'set' : 'cleared'}`,
        );
    if (Boolean(was.deprecated) !== Boolean(is.deprecated)) {
      const suffix = {
        none: '-deprecated',
        unreadable: '-deprecated-sunset-invalid',
        passed: '-sunset-date-too-small',
        ahead: '-deprecated-with-sunset',
      }[deprecationSunset(is)];
      add(
        is.deprecated ? `${side}-property${suffix}` : `${side}-property-reactivated`,
        name,
        is.deprecated ? 'deprecated' : 'no longer deprecated',
      );
    }
    const [stabilityWas, stabilityIs] = [was['x-stability-level'], is['x-stability-level']].map((level) =>
      STABILITY.indexOf(String(level ?? 'stable')),
    );
    if (is['x-stability-level'] !== was['x-stability-level'] && stabilityIs === -1)
      add('api-invalid-stability-level', name, `x-stability-level ${String(is['x-stability-level'])}`);
    if (stabilityWas !== undefined && stabilityIs !== undefined && stabilityWas !== stabilityIs && stabilityIs >= 0)
      add(
        `${side}-property-stability-${stabilityIs < stabilityWas ? 'decreased' : 'increased'}`,
        name,
        `x-stability-level ${String(was['x-stability-level'] ?? 'stable')} -> ${String(is['x-stability-level'])}`,
      );
    const below = {
      level: depth.level + 1,
      readOnly: request && (depth.readOnly || is.readOnly === true),
      writeOnly: !request && (depth.writeOnly || is.writeOnly === true),
    };
    at.compare(was, is, inside(at, `${where}.${name}`, below));
  }

  for (const [name, is] of Object.entries(propsAfter)) {
    if (name in propsBefore) continue;
    const required = requiredAfter.has(name);
    const what = `${required ? 'required ' : ''}property added`;
    if (request) {
      if (is.readOnly) continue;
      const id = required
        ? header
          ? 'new-required-request-header-property'
          : is.default !== undefined
            ? 'new-required-request-property-with-default'
            : 'new-required-request-property'
        : 'new-optional-request-property';
      add(id, name, what);
    } else add(`response-${requiredness(required)}-${is.writeOnly ? 'write-only-' : ''}property-added`, name, what);
  }
}
