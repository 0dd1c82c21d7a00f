// A process's environment as enginectl reads it: names to values, read only. One type for every
// floor that is given one (the runner's scope, the API's dispatcher, the CI systems, the store).
export type Env = Readonly<Record<string, string | undefined>>;
