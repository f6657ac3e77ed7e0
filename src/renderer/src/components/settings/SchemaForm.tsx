/**
 * A form made from a plugin's config JSON Schema (docs/plugins.md): strings, numbers, booleans and enums, with each
 * field's description as its hint. Secret fields are password inputs that show only "set" / "not set"; a value typed
 * there replaces the stored one, "Remove" deletes it. The core validates on save; its refusal names the field.
 */
import { useState } from 'react';

interface FieldSchema {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  default?: unknown;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

export interface SchemaFormProps {
  schema: Record<string, unknown>;
  values: Record<string, unknown>;
  secretFields: { name: string; isSet: boolean }[];
  idPrefix: string;
  onSave: (patch: Record<string, unknown>) => void;
}

const LONG_TEXT = 10_000;

function typeOf(field: FieldSchema): string {
  const t = Array.isArray(field.type) ? field.type.find((x) => x !== 'null') : field.type;
  return t ?? 'string';
}

export function SchemaForm({ schema, values, secretFields, idPrefix, onSave }: SchemaFormProps) {
  const properties = (schema.properties ?? {}) as Record<string, FieldSchema>;
  const secrets = new Map(secretFields.map((f) => [f.name, f.isSet]));
  const [draft, setDraft] = useState<Record<string, unknown>>({});
  const set = (name: string, value: unknown) => setDraft((d) => ({ ...d, [name]: value }));
  const current = (name: string) => (name in draft ? draft[name] : (values[name] ?? ''));

  return (
    <form
      className="schema-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(draft);
        setDraft({});
      }}
    >
      {Object.entries(properties).map(([name, field]) => {
        const id = `${idPrefix}-${name}`;
        const kind = typeOf(field);
        let control;
        if (secrets.has(name)) {
          control = (
            <span className="secret-field">
              <input
                id={id}
                type="password"
                autoComplete="off"
                placeholder={secrets.get(name) ? 'set — type to replace' : 'not set'}
                value={String(draft[name] ?? '')}
                onChange={(e) => set(name, e.target.value)}
              />
              {secrets.get(name) && (
                <button type="button" className="danger" onClick={() => onSave({ [name]: null })}>
                  Remove
                </button>
              )}
            </span>
          );
        } else if (field.enum) {
          control = (
            <select id={id} value={String(current(name))} onChange={(e) => set(name, e.target.value)}>
              {field.enum.map((v) => (
                <option key={String(v)} value={String(v)}>
                  {String(v)}
                </option>
              ))}
            </select>
          );
        } else if (kind === 'boolean') {
          control = (
            <input
              id={id}
              type="checkbox"
              checked={Boolean(current(name))}
              onChange={(e) => set(name, e.target.checked)}
            />
          );
        } else if (kind === 'number' || kind === 'integer') {
          control = (
            <input
              id={id}
              type="number"
              min={field.minimum}
              max={field.maximum}
              value={String(current(name))}
              onChange={(e) => set(name, e.target.value === '' ? null : Number(e.target.value))}
            />
          );
        } else if ((field.maxLength ?? 0) > LONG_TEXT) {
          control = (
            <textarea
              id={id}
              rows={6}
              spellCheck={false}
              value={String(current(name))}
              onChange={(e) => set(name, e.target.value)}
            />
          );
        } else {
          control = (
            <input
              id={id}
              type="text"
              value={String(current(name))}
              onChange={(e) => set(name, e.target.value === '' ? null : e.target.value)}
            />
          );
        }
        return (
          <div className="schema-field" key={name}>
            <label htmlFor={id}>{name}</label>
            {control}
            {field.description && <small className="muted">{field.description}</small>}
          </div>
        );
      })}
      <div>
        <button className="primary" type="submit" disabled={Object.keys(draft).length === 0}>
          Save
        </button>
      </div>
    </form>
  );
}
