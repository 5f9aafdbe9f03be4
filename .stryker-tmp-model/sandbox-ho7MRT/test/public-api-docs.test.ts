/**
 * The public API is documented: every symbol exported by `cdk8s-agent-play` (constructs/index.ts) and
 * `cdk8s-agent-play/validate` (src/validate/index.ts) has a TSDoc comment, so do the public members of the
 * exported classes, and every field of a props or options interface says what it means, with `@default`
 * when it is optional; a function, method or constructor that refuses with a `throw` of its own says `@throws`. Read with the TypeScript compiler, as an editor shows it to a user.
 */
// @ts-nocheck

import * as path from 'node:path';
import * as ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.join(__dirname, '..');

function hasDoc(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() !== '';
}

function isPrivate(symbol: ts.Symbol): boolean {
  const declaration = symbol.declarations?.[0];
  if (declaration === undefined) return false;
  return (
    (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Private) !== 0 ||
    (ts.isClassElement(declaration) && declaration.name !== undefined && ts.isPrivateIdentifier(declaration.name))
  );
}

/** Whether `node`'s own body throws (a `throw` outside any nested function). */
function throwsItself(node: ts.Node): boolean {
  let found = false;
  const visit = (child: ts.Node): void => {
    if (found || ts.isFunctionLike(child) || ts.isClassLike(child)) return;
    if (ts.isThrowStatement(child)) found = true;
    else ts.forEachChild(child, visit);
  };
  const body = (node as ts.FunctionLikeDeclaration).body;
  if (body !== undefined) ts.forEachChild(body, visit);
  return found;
}

/** A function, method or constructor that refuses with a `throw` of its own says so with `@throws`. */
function throwsGap(name: string, declaration: ts.Declaration | undefined): string[] {
  if (declaration === undefined || !ts.isFunctionLike(declaration) || !throwsItself(declaration)) return [];
  return ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'throws') ? [] : [`${name}: throws without @throws`];
}

/** The documentation gaps of a class's public members and statics. */
function classGaps(name: string, symbol: ts.Symbol, checker: ts.TypeChecker): string[] {
  const gaps: string[] = [];
  for (const [member, memberSymbol] of symbol.members ?? new Map<ts.__String, ts.Symbol>()) {
    // A generic class's type parameters are among its members; `@typeParam` documents them on the class.
    if (isPrivate(memberSymbol) || (memberSymbol.flags & ts.SymbolFlags.TypeParameter) !== 0) continue;
    if (member === '__constructor') {
      for (const declaration of memberSymbol.declarations ?? []) gaps.push(...throwsGap(`new ${name}`, declaration));
      continue;
    }
    if (!hasDoc(memberSymbol, checker)) gaps.push(`${name}.${String(member)}: no TSDoc`);
    gaps.push(...throwsGap(`${name}.${String(member)}`, memberSymbol.declarations?.[0]));
  }
  for (const [member, memberSymbol] of symbol.exports ?? new Map<ts.__String, ts.Symbol>()) {
    if (member === 'prototype' || isPrivate(memberSymbol)) continue;
    if (!hasDoc(memberSymbol, checker)) gaps.push(`${name}.${String(member)}: no TSDoc`);
    gaps.push(...throwsGap(`${name}.${String(member)}`, memberSymbol.declarations?.[0]));
  }
  return gaps;
}

/** The documentation gaps of a props or options interface: a field without meaning, an optional one without a default. */
function propsGaps(name: string, symbol: ts.Symbol, checker: ts.TypeChecker): string[] {
  const gaps: string[] = [];
  for (const field of checker.getDeclaredTypeOfSymbol(symbol).getProperties()) {
    const optional = (field.flags & ts.SymbolFlags.Optional) !== 0;
    if (!hasDoc(field, checker)) gaps.push(`${name}.${field.name}: no TSDoc`);
    else if (optional && !field.getJsDocTags(checker).some((tag) => tag.name === 'default'))
      gaps.push(`${name}.${field.name}: optional without @default`);
  }
  return gaps;
}

/** Every documentation gap of the exports of `entries`, one line each. */
function documentationGaps(entries: readonly string[]): string[] {
  const files = entries.map((entry) => path.join(root, entry));
  const options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    noLib: true,
    types: [],
    noEmit: true,
  };
  // Only the package's own files carry its documentation: packages (cdk8s, zod) and the standard library stay
  // unread, which keeps the check to a few seconds.
  const host = ts.createCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) =>
      literal.text.startsWith('.') ? ts.resolveModuleName(literal.text, containingFile, options, host) : { resolvedModule: undefined },
    );
  const program = ts.createProgram(files, options, host);
  const checker = program.getTypeChecker();
  const gaps: string[] = [];
  for (const file of files) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile) as ts.Symbol;
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const name = exported.name;
      if (!hasDoc(symbol, checker)) gaps.push(`${name}: no TSDoc`);
      if (symbol.flags & ts.SymbolFlags.Function) gaps.push(...throwsGap(name, symbol.declarations?.[0]));
      if (symbol.flags & ts.SymbolFlags.Class) gaps.push(...classGaps(name, symbol, checker));
      if (symbol.flags & ts.SymbolFlags.Interface && /(Props|Options)$/.test(name)) gaps.push(...propsGaps(name, symbol, checker));
    }
  }
  return gaps;
}

describe('the public API is documented', () => {
  it('every export of cdk8s-agent-play and cdk8s-agent-play/validate, and every props field', () => {
    expect(documentationGaps(['constructs/index.ts', 'src/validate/index.ts'])).toEqual([]);
  }, 60_000);

  it('the check finds an undocumented export, member, static and props field, and a refusal without @throws', () => {
    expect(documentationGaps(['test/fixtures/undocumented-api.ts']).sort()).toEqual([
      'UNDOCUMENTED: no TSDoc',
      'Widget.refuse: throws without @throws',
      'Widget.undocumentedFactory: no TSDoc',
      'Widget.undocumentedField: no TSDoc',
      'WidgetProps.colour: optional without @default',
      'WidgetProps.size: no TSDoc',
      'new Widget: throws without @throws',
      'refuse: throws without @throws',
    ]);
  }, 60_000);
});
