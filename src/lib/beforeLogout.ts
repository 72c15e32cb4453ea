type BeforeLogout = () => Promise<void>;
const handlers = new Set<BeforeLogout>();

/** Work to finish before an automatic logout (the application saves what was typed). */
export function registerBeforeAutoLogout(handler: BeforeLogout): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}

export async function runBeforeAutoLogout(): Promise<void> {
  await Promise.allSettled([...handlers].map((handler) => handler()));
}
