/**
 * The body fields a route does not declare. express-validator's checkExact is not used:
 * it looks keys up in plain objects, so a body key named like an Object.prototype member
 * ("constructor", "toString", "__proto__") either passes as known or makes it throw (a 500).
 * Here every lookup goes through a Map.
 */
export interface FieldTree {
  children: Map<string, FieldTree>;
}

/** The tree of declared paths (`a`, `a.b`, `items.*.name`); `*` stands for any key or index. */
export function fieldTree(paths: string[]): FieldTree {
  const root: FieldTree = { children: new Map() };
  for (const path of paths) {
    let node = root;
    for (const part of path.split('.')) {
      let child = node.children.get(part);
      if (!child) node.children.set(part, (child = { children: new Map() }));
      node = child;
    }
  }
  return root;
}

/**
 * Paths of the values under `value` that no declared path reaches. A declared field without
 * declared children holds whatever its own check accepts (e.g. a wire message object).
 */
export function unknownFields(value: unknown, tree: FieldTree, prefix = ''): string[] {
  if (tree.children.size === 0 || typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) {
    const items = tree.children.get('*');
    const base = prefix.replace(/\.$/, '');
    return items ? value.flatMap((v, i) => unknownFields(v, items, `${base}[${i}].`)) : [];
  }
  return unknownKeys(value as Record<string, unknown>, tree, prefix);
}

/** The keys of an object (a request body: `{}` declares that it holds none) that the tree does not declare. */
export function unknownKeys(object: Record<string, unknown>, tree: FieldTree, prefix = ''): string[] {
  return Object.keys(object).flatMap((key) => {
    const child = tree.children.get(key) ?? tree.children.get('*');
    const path = `${prefix}${key}`;
    return child ? unknownFields(object[key], child, `${path}.`) : [path];
  });
}
