import { useState } from 'react';
import { likeComment } from '../../stores/comments.ts';

/** Likes a comment or reply, one at a time: `id` is the one being liked (its button waits). */
export function useLiking(postId: number) {
  const [id, setId] = useState<number | null>(null);
  async function like(commentId: number) {
    if (id !== null) return;
    setId(commentId);
    try {
      await likeComment(postId, commentId);
    } catch (error) {
      // Comment like failures are only logged.
      console.error('Failed to like comment', error);
    } finally {
      setId(null);
    }
  }
  return { id, like: (commentId: number) => void like(commentId) };
}
