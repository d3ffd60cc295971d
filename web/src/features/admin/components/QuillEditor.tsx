// The rich-text editor (Quill through react-quill-new) with the spec's toolbar: headings 1-3,
// bold, italic, underline, strike, ordered and bullet lists, link, clean. Loaded on demand by
// RichTextField, so only the admin chunk carries it.
import { useEffect, useRef } from 'react';
import ReactQuill from 'react-quill-new';
import 'react-quill-new/dist/quill.snow.css';

const MODULES = {
  toolbar: [[{ header: [1, 2, 3, false] }], ['bold', 'italic', 'underline', 'strike'], [{ list: 'ordered' }, { list: 'bullet' }], ['link'], ['clean']],
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
  }, [labelledBy]);
  return <ReactQuill ref={ref} theme="snow" value={value} onChange={(html) => onChange(html)} modules={MODULES} formats={FORMATS} />;
}
