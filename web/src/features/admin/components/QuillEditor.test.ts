import Keyboard from 'quill/modules/keyboard';
import { describe, expect, it } from 'vitest';
import { KEYBOARD_BINDINGS } from './QuillEditor';

describe('QuillEditor keyboard', () => {
  it('leaves Tab and Shift+Tab to the browser: every Quill binding of the Tab key is switched off', () => {
    const defaults = (Keyboard.DEFAULTS as { bindings: Record<string, { key?: string | number } | null> }).bindings;
    const tabBindings = Object.entries(defaults)
      .filter(([, binding]) => binding && (binding.key === 'Tab' || binding.key === 9))
      .map(([name]) => name)
      .sort();
    expect(tabBindings.length).toBeGreaterThan(0);
    expect(Object.keys(KEYBOARD_BINDINGS).sort()).toEqual(tabBindings);
    expect(new Set(Object.values(KEYBOARD_BINDINGS as Record<string, unknown>))).toEqual(new Set([null]));
  });
});
