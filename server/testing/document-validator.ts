// Answers and examples checked against the contract document with a real JSON Schema
// validator (Ajv, draft 2020-12, the dialect of OpenAPI 3.1): whether a status is declared for
// an operation, and whether a body is valid against the schema declared for it.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

export interface DocumentValidator {
  /** A validator for one schema of the document, its `#/components/...` references resolved against the document. */
  schema(schema: Json): ((value: unknown) => boolean) & { errors?: unknown };
  /** Ajv's text for the last failure of a validator from `schema`. */
  errorsText(validate: { errors?: unknown }): string;
  /** Why this answer is not one the document declares for the operation, or null when it is. */
  answer(method: string, path: string, status: number, body: unknown): string | null;
}

export function documentValidator(doc: Json): DocumentValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  const compiled = new Map<Json, ReturnType<typeof ajv.compile>>();
  const schema = (s: Json) => {
    let validate = compiled.get(s);
    if (!validate) {
      validate = ajv.compile({ ...s, components: doc.components });
      compiled.set(s, validate);
    }
    return validate;
  };
  const errorsText = (validate: { errors?: unknown }) => ajv.errorsText(validate.errors as Parameters<typeof ajv.errorsText>[0]);
  return {
    schema,
    errorsText,
    answer(method, path, status, body) {
      const operation = doc.paths?.[path]?.[method.toLowerCase()] as Json | undefined;
      if (!operation) return `${method} ${path}: not in the document`;
      const response = operation.responses?.[String(status)] as Json | undefined;
      if (!response) return `${method} ${path} → ${status}: status not declared`;
      const declared = response.content?.['application/json']?.schema as Json | undefined;
      if (!declared) return body === undefined ? null : `${method} ${path} → ${status}: a body where none is declared`;
      const validate = schema(declared);
      return validate(body) ? null : `${method} ${path} → ${status}: ${errorsText(validate)}`;
    },
  };
}
