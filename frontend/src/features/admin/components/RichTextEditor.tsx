import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';

export interface RichTextEditorProps {
  /** HTML; the editor follows it when it changes from outside (a reset). */
  value: string;
  onChange: (html: string) => void;
  /** The accessible name of the writing area. */
  label: string;
  describedBy?: string;
  invalid?: boolean;
}

/** An empty editor's HTML (one empty paragraph) counts as no text. */
const EMPTY = '<p></p>';

interface ToolButton {
  label: string;
  text: string;
  active: (e: Editor) => boolean;
  run: (e: Editor) => void;
}

const TOOLS: ToolButton[] = [
  { label: '太字', text: 'B', active: (e) => e.isActive('bold'), run: (e) => e.chain().focus().toggleBold().run() },
  { label: '斜体', text: 'I', active: (e) => e.isActive('italic'), run: (e) => e.chain().focus().toggleItalic().run() },
  {
    label: '見出し',
    text: '見出し',
    active: (e) => e.isActive('heading', { level: 3 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run(),
  },
  {
    label: '箇条書き',
    text: '・',
    active: (e) => e.isActive('bulletList'),
    run: (e) => e.chain().focus().toggleBulletList().run(),
  },
  {
    label: '番号付きリスト',
    text: '1.',
    active: (e) => e.isActive('orderedList'),
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    label: '引用',
    text: '“”',
    active: (e) => e.isActive('blockquote'),
    run: (e) => e.chain().focus().toggleBlockquote().run(),
  },
];

/**
 * The rich-text editor of mail bodies and project stories (TipTap, MIT, no outside service). Loaded lazily by the
 * forms that use it, so neither the home page nor the other admin screens carry it.
 */
export default function RichTextEditor({ value, onChange, label, describedBy, invalid }: RichTextEditorProps) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: { levels: [3] }, link: { openOnClick: false } })],
    content: value,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        class: 'rich-text__content',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => TOOLS.map((tool) => (e ? tool.active(e) : false)),
  });

  // A reset from the form (after sending) empties the editor too. An editor React has already torn down (a
  // remount while the page's data arrives) has no schema left to read.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if (value !== current && !(value === '' && current === EMPTY)) {
      editor.commands.setContent(value || '', { emitUpdate: false });
    }
  }, [editor, value]);

  // The error state reaches the writing area's attributes (its accessible state).
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.setOptions({
      editorProps: {
        attributes: {
          class: 'rich-text__content',
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': label,
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          ...(invalid ? { 'aria-invalid': 'true' } : {}),
        },
      },
    });
  }, [editor, label, describedBy, invalid]);

  return (
    <div className={`rich-text${invalid ? ' rich-text--invalid' : ''}`}>
      <div className="rich-text__toolbar" role="toolbar" aria-label="本文の書式">
        {TOOLS.map((tool, i) => (
          <button
            key={tool.label}
            type="button"
            className="rich-text__tool"
            aria-label={tool.label}
            aria-pressed={active?.[i] ?? false}
            onClick={() => editor && tool.run(editor)}
          >
            {tool.text}
          </button>
        ))}
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
