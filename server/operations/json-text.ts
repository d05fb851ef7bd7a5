// A response body whose JSON text is already made (by the database): the server sends it as it is,
// with no objects built and stringified again. `Body` is the type the text encodes, so that a
// handler still answers only what the contract describes.
export class JsonText<Body> {
  declare readonly encodes?: Body;
  constructor(readonly text: string) {}
}
