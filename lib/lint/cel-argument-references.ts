import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import type { PathSegment } from './parse-document';

/** The `args.…` paths a CEL condition reads, for checking them against the input schema. */

// Same limits as the compiler's environments; only parsing is needed here.
export const celEnvironment = new Environment({ homogeneousAggregateLiterals: false, limits: { maxAstNodes: 2000, maxDepth: 64 } })
  .registerVariable('args', 'map')
  .registerVariable('context', 'map')
  .registerVariable('result', 'dyn');

export interface ArgumentReference {
  path: PathSegment[];
  start: number;
  end: number;
}

/** The longest `args.a.b[0]` chains in an expression, with their offsets in the expression text. */
export function argumentReferences(ast: ASTNode): ArgumentReference[] {
  const found: ArgumentReference[] = [];
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...(node as unknown[]));
      continue;
    }
    if (!isAstNode(node)) continue;
    const chain = argumentChain(node);
    if (chain) {
      if (chain.length > 0) found.push({ path: chain, start: node.start, end: node.end });
      // Index expressions inside the chain (`args.items[args.i]`) are references too.
      collectIndexOperands(node, stack);
      continue;
    }
    if (Array.isArray(node.args)) stack.push(...(node.args as unknown[]));
    else if (isAstNode(node.args)) stack.push(node.args);
  }
  return found;
}

function isAstNode(value: unknown): value is ASTNode {
  return typeof value === 'object' && value !== null && 'op' in value && 'args' in value;
}

/** `args.a[0].b` -> ['a', 0, 'b']; undefined when the node is not a chain rooted at `args`. */
function argumentChain(node: ASTNode): PathSegment[] | undefined {
  const reversed: PathSegment[] = [];
  let current: ASTNode = node;
  for (;;) {
    if (current.op === 'id') return current.args === 'args' ? reversed.reverse() : undefined;
    if (current.op === '.' || current.op === '.?') {
      reversed.push(current.args[1]);
      current = current.args[0];
      continue;
    }
    if (current.op === '[]' || current.op === '[?]') {
      const [target, index] = current.args;
      if (index.op !== 'value') {
        // A computed index: only the part before it can be checked.
        reversed.length = 0;
      } else if (typeof index.args === 'string') reversed.push(index.args);
      else if (typeof index.args === 'bigint' || typeof index.args === 'number') reversed.push(Number(index.args));
      else reversed.length = 0;
      current = target;
      continue;
    }
    return undefined;
  }
}

function collectIndexOperands(node: ASTNode, stack: unknown[]): void {
  let current: ASTNode = node;
  while (current.op === '.' || current.op === '.?' || current.op === '[]' || current.op === '[?]') {
    if (current.op === '[]' || current.op === '[?]') {
      stack.push(current.args[1]);
      current = current.args[0];
    } else current = current.args[0];
  }
}
