// What a signed-in parent who is not a writer reads on the studio's screens (their 403).
export function WritersOnly({ email }: { email: string }) {
  return (
    <section aria-labelledby="writers-only-heading" className="rounded-2xl bg-amber-50 p-6 text-amber-950">
      <h2 id="writers-only-heading" className="text-xl font-bold">
        The studio is for Nestling’s authors and editors
      </h2>
      <p className="mt-2 break-words">
        You are signed in as {email || 'a parent'}, which is not an author or editor account. If it should be,
        ask one of Nestling’s admins to give it the role.
      </p>
    </section>
  );
}
