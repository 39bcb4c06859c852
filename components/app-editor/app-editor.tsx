"use client";
import { useEffect, useMemo, useState, useTransition } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { deleteAppAction, updateAppAction } from "@/app/portal/app-actions";
import { fieldForError, fieldPaths, withValueAt, type FormField } from "@/lib/apps/schema-form";
import type { AppView, ProductChoice } from "@/lib/portal/app-editor-data";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Button, Card, Field, Input, Select } from "@/components/ui/primitives";
import { SchemaFields } from "./schema-fields";
import { ThemeFields, type ThemeValue } from "./theme-fields";
import { AppPreview } from "./app-preview";

// The app editor: the record's own fields (slug, status, products), the theme, and the form generated from the
// type's JSON Schema, beside a live preview of the unsaved values. Saving sends them as one PATCH through the same
// domain function as the API; a refusal is shown beside the field its path names, and nothing typed is lost.

type Values = Record<string, unknown>;
type ShownError = { message: string; path: string };

/** The app's part the form edits: BaseApp fields, `config` and (Developer) `views`, as the API returned them. */
function initialValues(app: AppView): Values {
  const { name, description, defaultViews, defaultPanels, navigation, shell, config } = app;
  return {
    name,
    description,
    defaultViews,
    defaultPanels,
    navigation,
    shell,
    config,
    ...("views" in app && app.views ? { views: app.views } : {}),
  };
}

export function AppEditor({
  app,
  fields,
  products,
  isConsole,
  canWrite,
  canDelete,
  href,
}: {
  app: AppView;
  fields: FormField[];
  products: ProductChoice[];
  isConsole: boolean;
  canWrite: boolean;
  canDelete: boolean;
  href: string;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [dialog, confirm] = useConfirm();
  const [values, setValues] = useState<Values>(() => initialValues(app));
  const [theme, setTheme] = useState<ThemeValue | null>((app.theme as ThemeValue | null) ?? null);
  const [slug, setSlug] = useState(app.slug);
  const [status, setStatus] = useState(app.status);
  const [chosen, setChosen] = useState<string[]>(app.products);
  const [error, setError] = useState<{ message: string; path?: string } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const paths = useMemo(
    () => [
      ...fieldPaths(fields),
      "slug",
      "status",
      "products",
      "theme",
      "theme.preset",
      "theme.mode",
      ...Object.keys(theme?.custom ?? {}).map((n) => `theme.custom.${n}`),
    ],
    [fields, theme],
  );
  const target = fieldForError(error?.path, paths);
  const errorFor = (path: string): ShownError | null => (error && target === path ? { message: error.message, path: error.path! } : null);

  // Bring a refusal into view: the field it names may be far down the form.
  useEffect(() => {
    if (error) document.querySelector("[data-error-path], [data-form-error]")?.scrollIntoView({ block: "center" });
  }, [error]);

  function change(path: string, value: unknown) {
    setSaved(null);
    setValues((v) => withValueAt(v, path, value));
  }

  function save() {
    const body: Values = { ...values, theme: theme ?? null, ...(isConsole ? {} : { slug, status, products: chosen }) };
    start(async () => {
      const r = await updateAppAction(app.id, body);
      if (!r.ok) {
        setSaved(null);
        return setError({ message: r.error?.message ?? "Could not save the app.", path: r.error?.path ?? r.error?.field });
      }
      setError(null);
      setSaved(`Saved at ${new Date().toLocaleTimeString()}.`);
      // The console's own layout (name, theme, nav) is drawn from its app: redraw it.
      router.refresh();
    });
  }

  async function remove() {
    const ok = await confirm({
      title: `Delete "${app.name}"?`,
      body: isConsole
        ? "Your console goes back to its defaults (PORTAL_CONFIG's, when set) the next time it opens."
        : `Its page at ${href} stops working at once. Products it presents are not touched.`,
      confirmLabel: "Delete app",
    });
    if (!ok) return;
    start(async () => {
      const r = await deleteAppAction(app.id);
      if (!r.ok) return setError({ message: r.error?.message ?? "Could not delete the app." });
      router.push("/portal/apps");
    });
  }

  const formError = error && !target ? error : null;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
      <form
        method="post"
        noValidate
        aria-label={`Edit ${app.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
        className="min-w-0 space-y-6"
      >
        <fieldset disabled={!canWrite} className="min-w-0 space-y-6">
          <Card title="Address and products">
            {isConsole ? (
              <p className="text-sm text-slate-700 dark:text-slate-300">
                This is your console&apos;s app: it draws <Link href="/portal">/portal</Link> for your team in this environment (its name,
                theme, which views the nav shows, the views&apos; settings). It keeps its slug and is never published.
              </p>
            ) : (
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  label="Slug"
                  htmlFor="app-slug"
                  hint={`The app's address: ${href.replace(app.slug, slug)}`}
                  error={errorFor("slug")?.message}
                >
                  <Input id="app-slug" value={slug} invalid={!!errorFor("slug")} onChange={(e) => setSlug(e.target.value)} />
                </Field>
                <Field
                  label="Status"
                  htmlFor="app-status"
                  hint="A draft is seen only by your business."
                  error={errorFor("status")?.message}
                >
                  <Select id="app-status" value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
                    <option value="draft">draft</option>
                    <option value="published">published</option>
                  </Select>
                </Field>
                <fieldset className="sm:col-span-2" data-field="products">
                  <legend className="text-sm font-medium">Products it presents</legend>
                  {products.length ? (
                    <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                      {products.map((p) => (
                        <label key={p.id} className="flex items-center gap-1.5 text-sm">
                          <input
                            type="checkbox"
                            className="h-4 w-4"
                            checked={chosen.includes(p.id)}
                            onChange={(e) => setChosen(e.target.checked ? [...chosen, p.id] : chosen.filter((x) => x !== p.id))}
                          />
                          {p.name}
                        </label>
                      ))}
                    </div>
                  ) : (
                    <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                      No products in this environment yet: <Link href="/portal/products">create one</Link>.
                    </p>
                  )}
                  {errorFor("products") ? (
                    <p role="alert" className="text-sm text-red-600 dark:text-red-400" data-error-path={error?.path}>
                      {error?.message} <code className="text-xs">({error?.path})</code>
                    </p>
                  ) : null}
                </fieldset>
              </div>
            )}
          </Card>
          <Card title="Look">
            <ThemeFields
              theme={theme}
              onChange={(t) => {
                setSaved(null);
                setTheme(t);
              }}
              errorFor={errorFor}
            />
          </Card>
          <Card title={`${app.type} app settings`}>
            <p className="mb-4 text-xs text-slate-600 dark:text-slate-400">
              Generated from the type&apos;s schema (<a href={`/v1/apps/schemas/${app.type}`}>/v1/apps/schemas/{app.type}</a>). An empty box
              goes back to its default.
            </p>
            <SchemaFields fields={fields} values={values} onChange={change} errorFor={errorFor} />
          </Card>
        </fieldset>
        <div className="sticky bottom-0 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white py-3 dark:border-slate-800 dark:bg-slate-950">
          {canWrite ? (
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : "Save app"}
            </Button>
          ) : (
            <p className="text-sm">Your role can read this app, not change it.</p>
          )}
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            {saved}
          </p>
          {formError ? (
            <p role="alert" data-form-error className="basis-full text-sm text-red-600 dark:text-red-400">
              {formError.message}
              {formError.path ? <code className="ml-1 text-xs">({formError.path})</code> : null}
            </p>
          ) : null}
          {canDelete ? (
            <Button type="button" variant="danger" className="ml-auto" onClick={remove} disabled={pending}>
              Delete app
            </Button>
          ) : null}
        </div>
      </form>
      <section aria-labelledby="preview-title" className="min-w-0 lg:sticky lg:top-4 lg:self-start">
        <h2 id="preview-title" className="mb-2 text-base font-semibold">
          Live preview
        </h2>
        <p className="mb-3 text-xs text-slate-600 dark:text-slate-400">Follows your edits as you type, before you save.</p>
        <AppPreview type={app.type} values={values} theme={theme} />
      </section>
      {dialog}
    </div>
  );
}
