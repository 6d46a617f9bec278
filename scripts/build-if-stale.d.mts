export declare const root: string;
export declare function isFresh(dist: string): boolean;
export declare function ensureBuilt(dist?: string, log?: (message: string) => void): Promise<boolean>;
