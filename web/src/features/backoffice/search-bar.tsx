import { type FormEvent, useState } from 'react';

export function SearchBar({
  placeholder,
  onSearch,
  onReset,
}: {
  placeholder: string;
  onSearch: (text: string) => void;
  onReset: () => void;
}) {
  const [text, setText] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(text);
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <input aria-label={placeholder} placeholder={placeholder} value={text} onChange={(e) => setText(e.target.value)} />
      <button type="submit">Search</button>
      <button
        type="button"
        onClick={() => {
          setText('');
          onReset();
        }}
      >
        Reset
      </button>
    </form>
  );
}
