import { Body, Query, type Type } from '@nestjs/common';

/**
 * A parameter decorator that validates and documents the parameter as `type`. Nest and Swagger
 * take a parameter's class from the handler's `design:paramtypes`, which a handler written for
 * several classes (a controller made by a factory) sets to its common type.
 */
function typed(type: Type<unknown>, decorator: ParameterDecorator): ParameterDecorator {
  return (target, key, index) => {
    const types = [...(Reflect.getMetadata('design:paramtypes', target, key!) as unknown[])];
    types[index] = type;
    Reflect.defineMetadata('design:paramtypes', types, target, key!);
    decorator(target, key, index);
  };
}

/** `@Body()` validated against, and documented as, `type`. */
export const BodyOf = (type: Type<unknown>): ParameterDecorator => typed(type, Body());

/** `@Query()` validated against, and documented as, `type`. */
export const QueryOf = (type: Type<unknown>): ParameterDecorator => typed(type, Query());
