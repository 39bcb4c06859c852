import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// VibeCode: build an app by chatting with AI, with a live preview and the code.

export const VIBE_CODE_LAYOUTS = ["horizontal", "vertical", "grid"] as const;

export const VibeCodeConfig = z.object({
  showChat: flag(),
  showPreview: flag(),
  showCode: flag(),
  defaultLayout: z.enum(VIBE_CODE_LAYOUTS).default("horizontal"),
  enableAIGeneration: flag(),
  enableLivePreview: flag(),
  languages: names(),
  editorThemes: names(),
});

export const VibeCodeApp = z.object({
  ...baseApp({ views: ["editor"], panels: ["chat", "preview", "code"] }),
  type: z.literal("VibeCode").default("VibeCode"),
  config: VibeCodeConfig.prefault({}),
});
export type VibeCodeApp = z.infer<typeof VibeCodeApp>;

export const vibeCodeMeta: AppTypeMeta = {
  description: "Build an app by chatting with AI: the chat, a live preview and the generated code side by side.",
  views: {
    editor: "The workspace: chat, live preview and code, arranged in the default layout.",
  },
  panels: {
    chat: "A conversation with the AI, which describes each change and applies it.",
    preview: "The running app, refreshed live as the code changes.",
    code: "The generated source files in an editor.",
  },
};
