import type { Express } from 'express';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route mounted on the app, as `METHOD path`: used to prove the docs cover them all. */
export function listMountedRoutes(app: Express): string[] {
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  return stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((m) => m !== '_all')
          .map((m) => `${m.toUpperCase()} ${layer.route!.path}`)
      : [],
  );
}
