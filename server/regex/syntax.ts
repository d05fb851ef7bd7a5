// What the analysis of a pattern reads of its syntax, with regexpp and regexp-ast-analysis: the
// pattern parsed in Unicode mode, the flags in force (a group's modifiers change them), the
// characters a character, class or escape reads, and whether a part repeats without bound.
import { type AST, RegExpParser } from '@eslint-community/regexpp';
import { type Cache, toCache, toCharSet } from 'regexp-ast-analysis';

export type CharSet = ReturnType<typeof toCharSet>;

/** The mark before the text, which `^` reads, and the one after it, which `$` reads. */
export const TEXT_START = -1;
export const TEXT_END = -2;

/** What a position reads: one character (its code point), a mark (TEXT_START, TEXT_END), or a set of characters. */
export type Label = number | CharSet;

export interface Flags {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
}

// One per combination of flags (eight at most): what regexp-ast-analysis computes once for them.
const caches = new Map<string, Cache>();

function cacheFor(flags: Flags): Cache {
  const key = `${flags.ignoreCase}${flags.multiline}${flags.dotAll}`;
  const cache = caches.get(key) ?? toCache({ unicode: true, ...flags });
  caches.set(key, cache);
  return cache;
}

/** What a character, class or escape reads: one code point, or a set of them. */
export function classLabel(node: AST.Character | AST.CharacterClass | AST.CharacterSet, flags: Flags): Label {
  const set = toCharSet(node as Parameters<typeof toCharSet>[0], cacheFor(flags));
  const only = set.ranges.length === 1 ? set.ranges[0] : undefined;
  return only && only.min === only.max ? only.min : set;
}

export function withModifiers(flags: Flags, modifiers: AST.Modifiers): Flags {
  const { add, remove } = modifiers;
  const pick = (name: keyof Flags) => (add[name] ? true : remove?.[name] ? false : flags[name]);
  return { ignoreCase: pick('ignoreCase'), multiline: pick('multiline'), dotAll: pick('dotAll') };
}

export function hasUnboundedRepetition(node: AST.Node): boolean {
  if (node.type === 'Quantifier' && node.max === Number.POSITIVE_INFINITY) return true;
  const children: AST.Node[] =
    'alternatives' in node
      ? node.alternatives
      : 'elements' in node
        ? node.elements
        : node.type === 'Quantifier'
          ? [node.element]
          : [];
  return children.some(hasUnboundedRepetition);
}

const parser = new RegExpParser();

/** `source` parsed as an ECMAScript pattern in Unicode mode (the u flag alone); SyntaxError when it is not one. */
export function parsePattern(source: string): AST.Pattern {
  return parser.parsePattern(source, 0, source.length, { unicode: true });
}
