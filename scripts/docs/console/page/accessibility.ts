/// <reference lib="dom" />
// What Swagger UI renders that a reader with a screen reader or a keyboard cannot use (WCAG 2.1,
// 4.1.2 and 2.1.1), mended as it renders:
// - an operation's summary is a button that holds the operation's deep link, a control inside a
//   control: the summary shows the path as text (the page's URL still follows the open operation);
// - its selects and the body's editor have no name: each gets the name its neighbours show;
// - a code block that scrolls takes no focus, so a keyboard cannot scroll it: each takes it.
import type { Component, ConsoleSystem, Immutable, Plugin } from './swagger-ui-system.js';

/** Swagger UI's `operationProps`: only `set` is used here. */
interface OperationProps extends Immutable {
  set(key: string, value: unknown): OperationProps;
}

interface SummaryPathProps {
  operationProps: OperationProps;
}

export const plainSummaryPathPlugin: Plugin = () => ({
  wrapComponents: {
    OperationSummaryPath: (Original: Component<SummaryPathProps>, system: ConsoleSystem) => (props: SummaryPathProps) =>
      system.React.createElement(Original, {
        ...props,
        operationProps: props.operationProps.set('isDeepLinkingEnabled', false),
      }),
  },
});

const NAMES: ReadonlyArray<readonly [selector: string, name: string]> = [
  ['select#servers', 'Servers'],
  ['select.examples-select-element', 'Examples'],
  ['textarea.body-param__text', 'Request body'],
];
const SCROLLING_CODE = '.highlight-code > pre';

function mend(root: ParentNode): void {
  for (const [selector, name] of NAMES)
    for (const control of root.querySelectorAll(`${selector}:not([aria-label])`))
      control.setAttribute('aria-label', name);
  for (const code of root.querySelectorAll(`${SCROLLING_CODE}:not([tabindex])`)) code.setAttribute('tabindex', '0');
}

/** Names the controls and lets the keyboard into the code blocks under `root`, now and as they render. */
export function keepAccessible(root: HTMLElement): void {
  mend(root);
  new MutationObserver(() => mend(root)).observe(root, { childList: true, subtree: true });
}
