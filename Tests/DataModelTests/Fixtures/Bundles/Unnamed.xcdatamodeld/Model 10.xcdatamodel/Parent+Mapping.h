#import <CoreData/CoreData.h>
