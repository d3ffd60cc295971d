// The rich-text editor (Quill through react-quill-new) with the spec's toolbar: headings 1-3,
// bold, italic, underline, strike, ordered and bullet lists, link, clean. Loaded on demand by
// RichTextField, so only the admin chunk carries it.
import { useEffect, useRef } from 'react';
import ReactQuill from 'react-quill-new';
import 'react-quill-new/dist/quill.snow.css';

// Quill's Tab bindings insert a tab character or indent, so a keyboard user who tabs into the
// editor can never tab out of it (WCAG 2.1.2, no keyboard trap). Each is switched off (null): Tab and
// Shift+Tab move focus, as in every other field of the form.
const TAB_BINDINGS = ['tab', 'indent', 'outdent', 'indent code-block', 'outdent code-block', 'remove tab', 'table tab'] as const;
export const KEYBOARD_BINDINGS: Record<string, null> = Object.fromEntries(TAB_BINDINGS.map((name) => [name, null]));

const MODULES = {
  toolbar: [[{ header: [1, 2, 3, false] }], ['bold', 'italic', 'underline', 'strike'], [{ list: 'ordered' }, { list: 'bullet' }], ['link'], ['clean']],
  keyboard: { bindings: KEYBOARD_BINDINGS },
};
const FORMATS = ['header', 'bold', 'italic', 'underline', 'strike', 'list', 'link'];

export interface EditorProps {
  /** The id of the label element that names the editable area. */
  labelledBy: string;
  value: string;
  onChange: (html: string) => void;
}

export default function QuillEditor({ labelledBy, value, onChange }: EditorProps) {
  const ref = useRef<ReactQuill>(null);
  useEffect(() => {
    // The editable area is a div: give it the textbox role and the field's label.
    const root = ref.current?.getEditor().root;
    if (!root) return;
    root.setAttribute('role', 'textbox');
    root.setAttribute('aria-multiline', 'true');
    root.setAttribute('aria-labelledby', labelledBy);
    // The toolbar: a named toolbar, and a name for the heading picker (a span with the button role
    // and no text of its own: axe's aria-command-name).
    const toolbar = (ref.current?.getEditor().getModule('toolbar') as { container?: HTMLElement } | undefined)?.container;
    if (!toolbar) return;
    toolbar.setAttribute('role', 'toolbar');
    toolbar.setAttribute('aria-label', 'Formatting');
    for (const picker of toolbar.querySelectorAll('.ql-picker-label')) picker.setAttribute('aria-label', 'Heading level');
  }, [labelledBy]);
  return <ReactQuill ref={ref} theme="snow" value={value} onChange={(html) => onChange(html)} modules={MODULES} formats={FORMATS} />;
}
