// The reader's results are DataModel's values: importing the reader is enough to use them.
@_exported import DataModel
