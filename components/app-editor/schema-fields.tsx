"use client";
import { useState } from "react";
import { defaultText, listText, parseList, valueAt, type FormField } from "@/lib/apps/schema-form";
import { Input, Select } from "@/components/ui/primitives";

// The one renderer of every app type's form: a control per field kind derived from the type's JSON Schema
// (lib/apps/schema-form.ts), nested objects as fieldsets. Values live in the editor's state under each field's path;
// an empty text or number box is `null`, which the PATCH reads as "back to the default".

export interface SchemaFieldsProps {
  fields: FormField[];
  values: Record<string, unknown>;
  onChange: (path: string, value: unknown) => void;
  /** The error shown beside the field at this path, if any. */
  errorFor: (path: string) => { message: string; path: string } | null;
}

export const fieldId = (path: string) => `field-${path.replace(/[^A-Za-z0-9]+/g, "-")}`;

const textArea =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";

export function SchemaFields(props: SchemaFieldsProps) {
  return (
    <div className="space-y-4">
      {props.fields.map((f) => (
        <SchemaField key={f.path} field={f} {...props} />
      ))}
    </div>
  );
}

function FieldError({ id, error }: { id: string; error: { message: string; path: string } | null }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400" data-error-path={error.path}>
      {error.message} <code className="text-xs">({error.path})</code>
    </p>
  );
}

function Hint({ field }: { field: FormField }) {
  const parts = [
    field.description,
    field.default !== undefined && field.kind !== "group" ? `Default: ${defaultText(field.default)}.` : null,
  ];
  const text = parts.filter(Boolean).join(" ");
  return text ? <p className="text-xs text-slate-600 dark:text-slate-400">{text}</p> : null;
}

function SchemaField({ field, values, onChange, errorFor, fields: _all }: SchemaFieldsProps & { field: FormField }) {
  const id = fieldId(field.path);
  const error = errorFor(field.path);
  const raw = valueAt(values, field.path);
  const value = raw ?? field.default;
  const describedBy = error ? `${id}-error` : undefined;

  if (field.kind === "group")
    return (
      <fieldset className="space-y-4 rounded-md border border-slate-200 p-3 dark:border-slate-800" data-field={field.path}>
        <legend className="px-1 text-sm font-semibold">{field.label}</legend>
        {field.description ? <p className="text-xs text-slate-600 dark:text-slate-400">{field.description}</p> : null}
        <FieldError id={id} error={error} />
        <SchemaFields fields={field.fields} values={values} onChange={onChange} errorFor={errorFor} />
      </fieldset>
    );

  if (field.kind === "boolean")
    return (
      <div data-field={field.path}>
        <div className="flex items-start gap-2">
          <input
            id={id}
            type="checkbox"
            className="mt-0.5 h-4 w-4"
            checked={value === true}
            aria-describedby={describedBy}
            onChange={(e) => onChange(field.path, e.target.checked)}
          />
          <label htmlFor={id} className="text-sm font-medium">
            {field.label}
          </label>
        </div>
        <div className="ml-6">
          <Hint field={field} />
          <FieldError id={id} error={error} />
        </div>
      </div>
    );

  if (field.kind === "multi-enum") {
    const chosen = Array.isArray(value) ? (value as string[]) : [];
    return (
      <fieldset data-field={field.path} aria-describedby={describedBy}>
        <legend className="text-sm font-medium">{field.label}</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {field.options.map((o) => (
            <label key={o} className="flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                className="h-4 w-4"
                checked={chosen.includes(o)}
                onChange={(e) =>
                  onChange(
                    field.path,
                    field.options.filter((x) => (x === o ? e.target.checked : chosen.includes(x))),
                  )
                }
              />
              {o}
            </label>
          ))}
        </div>
        <Hint field={field} />
        <FieldError id={id} error={error} />
      </fieldset>
    );
  }

  return (
    <div className="space-y-1" data-field={field.path}>
      <label htmlFor={id} className="block text-sm font-medium">
        {field.label}
        {field.required ? (
          <span aria-hidden="true" className="text-red-700 dark:text-red-400">
            {" "}
            *
          </span>
        ) : null}
      </label>
      <Control id={id} field={field} value={value} raw={raw} invalid={!!error} onChange={(v) => onChange(field.path, v)} />
      <Hint field={field} />
      <FieldError id={id} error={error} />
    </div>
  );
}

function Control({
  id,
  field,
  value,
  raw,
  invalid,
  onChange,
}: {
  id: string;
  field: FormField;
  value: unknown;
  raw: unknown;
  invalid: boolean;
  onChange: (v: unknown) => void;
}) {
  const common = {
    id,
    "aria-invalid": invalid || undefined,
    "aria-describedby": invalid ? `${id}-error` : undefined,
    "aria-required": field.required || undefined,
  };
  switch (field.kind) {
    case "enum":
      return (
        <Select {...common} value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value || null)}>
          {field.default === undefined ? <option value="">Not set</option> : null}
          {field.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </Select>
      );
    case "number":
      return (
        <Input
          {...common}
          type="number"
          inputMode="numeric"
          min={field.minimum}
          max={field.maximum}
          step={field.integer ? 1 : "any"}
          placeholder={field.default !== undefined ? String(field.default) : undefined}
          value={raw === null || raw === undefined ? "" : String(raw)}
          onChange={(e) => {
            const text = e.target.value;
            const n = Number(text);
            onChange(text === "" ? null : Number.isFinite(n) ? n : text);
          }}
        />
      );
    case "string-list":
      return <ListInput common={common} value={value} onChange={onChange} />;
    case "json":
      return <JsonInput common={common} value={raw} onChange={onChange} />;
    case "string":
      return field.multiline ? (
        <textarea
          {...common}
          rows={3}
          className={textArea}
          maxLength={field.maxLength}
          value={typeof raw === "string" ? raw : ""}
          onChange={(e) => onChange(e.target.value === "" && !field.required ? null : e.target.value)}
        />
      ) : (
        <Input
          {...common}
          invalid={invalid}
          placeholder={typeof field.default === "string" ? field.default : undefined}
          value={typeof raw === "string" ? raw : ""}
          onChange={(e) => onChange(e.target.value === "" && !field.required ? null : e.target.value)}
        />
      );
    default:
      return null;
  }
}

type Common = { id: string; "aria-invalid"?: boolean; "aria-describedby"?: string; "aria-required"?: boolean };

/** A list of strings as "a, b, c": the text is kept as typed, the list follows it. */
function ListInput({ common, value, onChange }: { common: Common; value: unknown; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(listText(value));
  return (
    <Input
      {...common}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parseList(e.target.value));
      }}
    />
  );
}

/** A value the form has no control for, as JSON; the value changes only when the text parses. */
function JsonInput({ common, value, onChange }: { common: Common; value: unknown; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(value === undefined || value === null ? "" : JSON.stringify(value, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <>
      <textarea
        {...common}
        rows={4}
        spellCheck={false}
        className={`${textArea} font-mono`}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (!e.target.value.trim()) {
            setProblem(null);
            return onChange(null);
          }
          try {
            onChange(JSON.parse(e.target.value));
            setProblem(null);
          } catch {
            setProblem("Not valid JSON yet: the preview and a save use the last valid value.");
          }
        }}
      />
      {problem ? <p className="text-xs text-amber-800 dark:text-amber-300">{problem}</p> : null}
    </>
  );
}
