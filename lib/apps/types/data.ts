import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, text, type AppTypeMeta } from "./fields";

// Data: datasets, their sources, the pipelines that load them and their quality.

export const DataConfig = z.object({
  showDatasets: flag(),
  showSources: flag(),
  showPipelines: flag(),
  showQueryExplorer: flag(),
  showQuality: flag(),
  sourceTypes: names(),
  maxDatasetSize: text(),
});

export const DataApp = z.object({
  ...baseApp({
    views: ["datasets", "sources", "pipelines", "explorer", "quality"],
    panels: ["dataset-stats", "pipeline-status", "data-quality"],
  }),
  type: z.literal("Data").default("Data"),
  config: DataConfig.prefault({}),
});
export type DataApp = z.infer<typeof DataApp>;

export const dataMeta: AppTypeMeta = {
  description: "A data platform: datasets, the sources and pipelines that fill them, and checks on their quality.",
  views: {
    datasets: "Every dataset with its size, row count, owner and freshness.",
    sources: "Connected data sources and when each one last synced.",
    pipelines: "Pipelines with their schedules and latest runs.",
    explorer: "A query editor to explore datasets and save the queries you reuse.",
    quality: "Quality checks per dataset and their results over time.",
  },
  panels: {
    "dataset-stats": "The number of datasets, their total size and the rows added today.",
    "pipeline-status": "Each pipeline's latest run (succeeded, running or failed) and its duration.",
    "data-quality": "Checks passing and failing across datasets, worst first.",
  },
};
