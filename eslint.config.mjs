// ESLint (flat config): Next's rules (core web vitals, TypeScript), import order, and Prettier's switch-off of
// every formatting rule (Prettier formats; ESLint finds mistakes). `npm test`'s lint stage runs it.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypeScript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";
import importPlugin from "eslint-plugin-import";

const config = [
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
      "generated/**",
      "data/**",
      "test-results/**",
      "bench-results/**",
      "playwright-report/**",
      "dist/**",
    ],
  },
  ...nextVitals,
  ...nextTypeScript,
  {
    plugins: { import: importPlugin },
    rules: {
      // Groups in order, alphabetised: node built-ins, packages, then the project's own (`@/…`, relative).
      "import/order": [
        "error",
        {
          groups: ["builtin", "external", "internal", ["parent", "sibling", "index"]],
          pathGroups: [{ pattern: "@/**", group: "internal" }],
          pathGroupsExcludedImportTypes: ["builtin"],
          "newlines-between": "ignore",
        },
      ],
      // Prisma delegates and zod's generic routes are typed loosely on purpose in a few places, each with a comment.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  prettier,
];

export default config;
