/** Types of format-validators.mjs (for the tests). */
export declare const generatedPath: string;
export declare function generateFormatValidators(): Promise<string>;
