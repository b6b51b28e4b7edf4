/** One run of the publishing pipeline (sync content/, rebuild, swap in), as GET /api/admin/publish reports it. */
export interface PublishRun {
  id: number;
  trigger: string;
  state: 'queued' | 'syncing' | 'building' | 'succeeded' | 'failed';
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  postsChanged: number;
  error: string | null;
}

export interface PublishStatus {
  current: PublishRun | null;
  recent: PublishRun[];
}

/** What the API needs of the publisher; scripts/lib/publisher.ts implements it. */
export interface PublishService {
  /** Starts a run, or queues one follow-up run when a run is already in progress. */
  request: (trigger: string) => PublishRun;
  status: () => PublishStatus;
}
