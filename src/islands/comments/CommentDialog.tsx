// The thread's dialogs in one chunk, loaded on the first Report, Delete or Remove click, so a
// reader who never opens one never downloads them (docs/decisions/003).
import type { ReportCategory, Reply } from '../../../api/contract.ts';
import { ActionDialog } from '../dialogs/ActionDialog.tsx';
import { ReportDialog } from './ReportDialog.tsx';

export type CommentDialogKind = 'report' | 'delete' | 'remove';

interface Props {
  kind: CommentDialogKind;
  comment: Reply;
  onReport: (report: { category: ReportCategory; note: string | null }) => Promise<Reply>;
  onDelete: (reason: string | null) => Promise<void>;
  onClose: () => void;
  fallbackFocus: () => HTMLElement | null;
}

export default function CommentDialog({ kind, comment, onReport, onDelete, onClose, fallbackFocus }: Props) {
  if (kind === 'report') {
    return (
      <ReportDialog comment={comment} onSubmit={onReport} onClose={onClose} fallbackFocus={fallbackFocus} />
    );
  }
  if (kind === 'delete') {
    return (
      <ActionDialog
        title="Delete your comment?"
        description="It is removed for everyone. If it has replies, they stay under “This comment was deleted.”, without your name. This cannot be undone."
        confirmLabel="Delete"
        reason="none"
        destructive
        onConfirm={onDelete}
        onClose={onClose}
        fallbackFocus={fallbackFocus}
      />
    );
  }
  return (
    <ActionDialog
      title={`Remove ${comment.author_name || 'this parent'}’s comment?`}
      description="The thread will show “This comment was removed by a moderator.” in its place, and its author will see your reason. The removal is recorded in the audit log."
      confirmLabel="Remove"
      reason="required"
      reasonLabel="Reason (shown to its author)"
      destructive
      onConfirm={onDelete}
      onClose={onClose}
      fallbackFocus={fallbackFocus}
    />
  );
}
