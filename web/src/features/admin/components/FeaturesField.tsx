// The product form's Features list: each feature with its Remove button, and a field that adds
// one (Enter or "Add Feature").
import { useState, type KeyboardEvent } from 'react';
import { FormField } from '@/components/FormField';

export function FeaturesField({ features, onChange }: { features: string[]; onChange: (features: string[]) => void }) {
  const [feature, setFeature] = useState('');
  const addFeature = () => {
    const text = feature.trim();
    if (text === '') return;
    onChange([...features, text]);
    setFeature('');
  };
  const onFeatureKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    addFeature();
  };
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Features</legend>
      {features.length > 0 ? (
        <ul aria-label="Features" className="mt-2 space-y-1">
          {features.map((text, index) => (
            <li key={`${String(index)}-${text}`} className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-1 text-sm">
              <span>{text}</span>
              <button
                type="button"
                className="text-red-700 hover:underline"
                aria-label={`Remove feature ${text}`}
                onClick={() => onChange(features.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-2 flex items-end gap-2">
        <FormField
          wrapperClassName="flex-1"
          label="New Feature"
          hint="Press Enter to add it."
          value={feature}
          onChange={(event) => setFeature(event.target.value)}
          onKeyDown={onFeatureKey}
        />
        <button type="button" className="btn-secondary" onClick={addFeature}>
          Add Feature
        </button>
      </div>
    </fieldset>
  );
}
